#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The interop harness (docs/INTEROP.md): dpsctp against usrsctp,
or against the Linux kernel's SCTP (--peer linux), or against itself
(--peer dpsctp: the cases written for it, multihome-ports).

Two network namespaces joined by veth pairs: dpsctp-peer in namespace A on
net_af_packet (the veth end, or a bridge over two veths for multi-homing),
the other stack in namespace B: usrsctp-peer with the addresses, or
linux-sctp-peer in a QEMU guest running Debian's kernel (linux_vm.py),
bridged onto B's veth ends through taps. Every case runs in both
directions (dpsctp as client and as server) and both modes (SCTP over IP,
over UDP port 9899). Each run is captured on B's side of the link; tshark
dissects the capture with CRC32c checking on and must see no malformed
packet and no bad checksum, dpsctp-decode must agree with it packet by
packet, and each case checks what it is about on the wire (who sent the
SHUTDOWN or the ABORT, heartbeats both ways, data on the second path).
Namespaces and processes always go away; captures of failing runs are kept
(--keep DIR, default build/interop-artifacts), of every run with
INTEROP_KEEP_ALL=1 in the environment.

  interop.py BUILD_DIR [--peer usrsctp|linux|dpsctp] [--only CASE,...] [--all]
             [--modes raw,udp,raw6,udp6] [--dirs dpsctp-server,dpsctp-client]
             [--cut link|own] [--keep DIR] [--json FILE] [--doc docs/INTEROP.md] [-v]

Modes: SCTP over IPv4 (raw), over UDP (udp), and the same over IPv6 (raw6,
udp6); the default is raw,udp. The extension cases (multihome-ports, pr-rtx,
pr-ttl, no-ext, idata, idata-pr, idata-1chunk, idata-pr-1chunk, reconf-out,
reconf-in, reconf-add, reconf-assoc) run when --only names them, or with --all.

Exit status: 0 every run passed, 1 a run failed, 77 skipped (only with DPSCTP_ALLOW_SKIP=1: not root, or
the peer / tshark / ethtool / QEMU missing).
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
import threading
import time
import traceback
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.prereq import cannot_run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
A_IP = ["192.0.2.1", "198.51.100.1"]  # dpsctp's addresses (namespace A)
B_IP = ["192.0.2.2", "198.51.100.2"]  # the other stack's addresses (namespace B or its guest)
A_IP6 = ["2001:db8:1::1", "2001:db8:2::1"]  # the same over IPv6 (modes raw6, udp6)
B_IP6 = ["2001:db8:1::2", "2001:db8:2::2"]


# A mode: SCTP directly over IP or over UDP (RFC 6951), IPv4 or IPv6.
def is_udp(mode):
    return mode.startswith("udp")


def is_v6(mode):
    return mode.endswith("6")


def addrs_of(side, mode):
    """(addresses, prefix length) of side "a" (dpsctp) or "b" in this mode."""
    if is_v6(mode):
        return (A_IP6 if side == "a" else B_IP6), 64
    return (A_IP if side == "a" else B_IP), 24

SCTP_PORT = 5001
EAL = ["--no-huge", "--no-pci", "--no-shconf", "-l", "0", "-m", "512",
       "--log-level", "lib.eal:error"]
IMPAIR = "loss=1%,reorder=1%,reorder_gap=3,reorder_delay=2ms"
PR_LOSS = "loss=5%"  # the PR-SCTP cases: enough that messages are always abandoned
PR_MSGS = 1500
# The other peer's --linger in the cases with loss: its stack runs on after
# the close, so that when dpsctp's --impair-rx drops the last SHUTDOWN
# COMPLETE, dpsctp's retransmitted SHUTDOWN ACK is answered by the stack
# (RFC 9260 §8.4 rule 5) rather than by the kernel's ICMP protocol or port
# unreachable, which the DC profile ignores: T2-shutdown would run out and
# dpsctp report the association lost. 2 s: T2 at the DC profile's RTO.max
# (200 ms) retransmits ten times in it, and dpsctp lingers 3 s anyway, so the
# run takes no longer.
PEER_LINGER = ["--linger", "2"]
# The I-DATA cases. The other peer's receive buffer: usrsctp hands a message
# on in parts only once half its receive buffer of it has come, so a sender
# interleaving several streams' large messages chunk by chunk fills the
# default 128 KiB window with parts of messages none of which gets there,
# and the association stalls at a zero window (usrsctp against usrsctp as
# well, docs/INTEROP.md). 8 MiB holds one large message per stream.
IDATA_BIG = 1 << 20  # every fifth message 1 MiB, 512 KiB or 256 KiB (--big)
IDATA_PEER = ["--idata", "--rcvbuf", str(8 << 20)]
# The largest message that leaves in one I-DATA chunk in every mode (1,500
# bytes less IPv6, UDP, SCTP and I-DATA headers: 1,420): the -1chunk cases
# have no fragments, so no Fragment Sequence Numbers (Linux numbers them
# differently, docs/INTEROP.md).
IDATA_1CHUNK = 1400

# Chunk types (RFC 9260 §3.2).
DATA, INIT, INIT_ACK, SACK, HB, HB_ACK, ABORT, SHUTDOWN, SHUTDOWN_ACK = 0, 1, 2, 3, 4, 5, 6, 7, 8
SHUTDOWN_COMPLETE = 14
FORWARD_TSN = 192  # RFC 3758
FWD_TSN_SUPPORTED = 0xc000  # RFC 3758's INIT/INIT ACK parameter
I_DATA, I_FORWARD_TSN = 64, 194  # RFC 8260
DPSCTP_EXT_PR_SCTP = 0x02  # dpsctp.h
DPSCTP_EXT_I_DATA = 0x04
DPSCTP_EXT_RECONFIG = 0x08
# Stream reconfiguration (RFC 6525): the chunk and its parameters.
RE_CONFIG = 130
OUT_SSN_RESET, IN_SSN_RESET, SSN_TSN_RESET, RECONF_RESPONSE = 13, 14, 15, 16
ADD_OUT_STREAMS, ADD_IN_STREAMS = 17, 18
PERFORMED = 1  # Re-configuration Response result "Success - Performed"
# The reconf cases: 600 messages up to 9,000 bytes over 8 streams, echoed;
# the client's request goes after the 300th. Even streams carry only ordered
# messages (interop_unordered), so their SSNs count: stream 2 is reset
# outgoing, stream 4 incoming, and every one by the association reset.
RECONF_MSGS = ["-n", "600", "-l", "9000", "-S", "8", "--echo"]
RECONF_AT = 300
# dpsctp's extensions said in full (its default set, docs/API.md), so that
# a change of the default does not change what the reconf cases test.
RECONF_DP = ["--extensions", "pr-sctp,i-data,reconfig"]

VERBOSE = False

# The other stack. `start_s`: how long it may take to say it listens (the
# Linux guest boots first); `slow`: how much longer its runs may take (the
# guest's CPU is emulated by TCG, its kernel checksums every packet in
# software).
# dpsctp itself as the other stack (--peer dpsctp): dpsctp-peer in namespace
# B too, on B's veths, which then hold no address (B's kernel answers
# nothing); it runs the cases marked "dpsctp_peer".
PEERS = {
    "usrsctp": {"prog": "dataplane/tests/interop/usrsctp-peer", "start_s": 10, "slow": 1},
    "linux": {"prog": "dataplane/tests/interop/linux-sctp-peer", "start_s": 120, "slow": 4},
    "dpsctp": {"prog": "dataplane/tests/interop/dpsctp-peer", "start_s": 10, "slow": 1},
}
PEER = "usrsctp"
CUT = "link"  # --cut: what multihome-ports takes down (play_multihome_ports)
VM_DIR = None  # linux_vm.py's image (--peer linux)


def log(*a):
    print(*a, flush=True)


def sh(*cmd, check=True):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stdout.strip()))
    return r.stdout


class Proc:
    """A program in a namespace; its output lines are kept and can be waited for."""

    def __init__(self, name, ns, argv, logdir):
        self.name = name
        self.lines = []
        self.cv = threading.Condition()
        self.logf = open(os.path.join(logdir, name + ".log"), "w")
        self.p = subprocess.Popen(["ip", "netns", "exec", ns] + argv,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, start_new_session=True)
        self.logf.write("$ %s\n" % " ".join(argv))
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for line in self.p.stdout:
            self.logf.write(line)
            self.logf.flush()
            if VERBOSE:
                sys.stdout.write("    [%s] %s" % (self.name, line))
            with self.cv:
                self.lines.append(line.rstrip("\n"))
                self.cv.notify_all()

    def wait_line(self, pattern, timeout):
        rx = re.compile(pattern)
        end = time.time() + timeout
        with self.cv:
            while True:
                for ln in self.lines:
                    if rx.search(ln):
                        return ln
                left = end - time.time()
                if left <= 0 or (self.p.poll() is not None and not self.t.is_alive()):
                    return None
                self.cv.wait(min(left, 0.1))

    def has(self, pattern):
        rx = re.compile(pattern)
        with self.cv:
            return any(rx.search(ln) for ln in self.lines)

    def wait(self, timeout):
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill(signal.SIGKILL)
            rc = None
        self.t.join(2)
        return rc

    def kill(self, sig=signal.SIGTERM):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, sig)
            except ProcessLookupError:
                pass

    def close(self):
        self.kill(signal.SIGKILL)
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.t.join(2)
        self.logf.close()


class Net:
    """Namespaces A (dpsctp) and B (the other stack), joined by one or two veth pairs."""

    def __init__(self, paths, mode, ports=1):
        tag = "%d-%d" % (os.getpid(), paths)
        self.mode = mode
        # ports > 1: dpsctp drives one port per veth (a0, a1), each on its
        # own network, instead of one port on a bridge over them.
        self.ports = ports
        self.ns_a, self.ns_b = "dpiA-" + tag, "dpiB-" + tag
        self.paths = paths
        self.procs = []
        self.up_done = False

    def up(self):
        a, b = self.ns_a, self.ns_b
        sh("ip", "netns", "add", a)
        sh("ip", "netns", "add", b)
        self.up_done = True
        for ns in (a, b):
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        # B's veths share one L2 segment through A's bridge: without these,
        # b0 answers ARP for b1's address too (ARP flux) and dpsctp may learn
        # the wrong MAC for a path, which then dies with b0.
        for k, v in (("arp_ignore", "1"), ("arp_announce", "2")):
            sh("ip", "netns", "exec", b, "sysctl", "-qw", "net.ipv4.conf.all.%s=%s" % (k, v))
        if self.ports > 1:
            # Network A comes back in these cases: B's IPv6 addresses must
            # survive the link going down (Linux drops them by default).
            sh("ip", "netns", "exec", b, "sysctl", "-qw",
               "net.ipv6.conf.all.keep_addr_on_down=1")
        for i in range(self.paths):
            sh("ip", "-n", a, "link", "add", "a%d" % i, "type", "veth", "peer", "name",
               "b%d" % i, "netns", b)
            if PEER == "dpsctp":
                # dpsctp-peer's port i is e<i>, bridged onto b<i> through
                # f<i>: B's kernel holds no address, the capture on b<i>
                # sees the link as before, and taking b<i> down cuts the
                # link without downing a port's own interface (an
                # af_packet port whose interface went down and up again
                # is another matter than a network cut).
                sh("ip", "-n", b, "link", "add", "e%d" % i, "type", "veth", "peer", "name",
                   "f%d" % i)
                sh("ip", "-n", b, "link", "add", "vb%d" % i, "type", "bridge", "stp_state",
                   "0", "forward_delay", "0")
                for dev in ("b%d" % i, "f%d" % i):
                    sh("ip", "-n", b, "link", "set", dev, "master", "vb%d" % i)
                for dev in ("e%d" % i, "f%d" % i, "vb%d" % i):
                    sh("ip", "-n", b, "link", "set", dev, "up")
            elif PEER == "linux":
                # The guest's NIC i is tap t<i> on a bridge with b<i>: B's own
                # kernel holds no address and answers nothing, and the
                # capture on b<i> sees the link as before.
                sh("ip", "-n", b, "tuntap", "add", "dev", "t%d" % i, "mode", "tap")
                sh("ip", "-n", b, "link", "add", "vb%d" % i, "type", "bridge", "stp_state",
                   "0", "forward_delay", "0")
                for dev in ("b%d" % i, "t%d" % i):
                    sh("ip", "-n", b, "link", "set", dev, "master", "vb%d" % i)
                for dev in ("t%d" % i, "vb%d" % i):
                    sh("ip", "-n", b, "link", "set", dev, "up")
            else:
                ips, plen = addrs_of("b", self.mode)
                # nodad: usable at once, not after duplicate address detection.
                sh("ip", "-n", b, "addr", "add", "%s/%d" % (ips[i], plen), "dev", "b%d" % i,
                   *(["nodad"] if is_v6(self.mode) else []))
            sh("ip", "-n", b, "link", "set", "b%d" % i, "up")
            # A veth leaves UDP checksums to a NIC that is not there
            # (CHECKSUM_PARTIAL); have the kernel fill them, as a NIC would.
            sh("ip", "netns", "exec", b, "ethtool", "-K", "b%d" % i, "tx", "off")
            sh("ip", "-n", a, "link", "set", "a%d" % i, "up")
        if self.paths == 1 or self.ports > 1:
            self.dp_iface = "a0"
        else:
            # dpsctp has one port: a bridge over the veths gives it both
            # links, and taking b0 down still cuts the primary path.
            sh("ip", "-n", a, "link", "add", "br0", "type", "bridge", "stp_state", "0",
               "forward_delay", "0")
            for i in range(self.paths):
                sh("ip", "-n", a, "link", "set", "a%d" % i, "master", "br0")
            sh("ip", "-n", a, "link", "set", "br0", "up")
            self.dp_iface = "br0"

    def start(self, name, ns, argv, logdir):
        p = Proc(name, ns, argv, logdir)
        self.procs.append(p)
        return p

    def down(self):
        for p in self.procs:
            p.close()
        self.procs = []
        if self.up_done:
            for ns in (self.ns_a, self.ns_b):
                subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
            self.up_done = False


# The payloads are test patterns whose PPIDs (message numbers) collide with
# registered ones (1 IUA, 3 M3UA, ...): tshark judges SCTP, not what it carries.
TSHARK_OPTS = ["-n", "-o", "sctp.checksum:CRC 32c", "-o", "sctp.ulp_dissection:FALSE",
               "-o", "sctp.tsn_analysis:FALSE", "-o", "sctp.reassembly:FALSE"]


def sweep_stale_namespaces():
    """Namespaces a killed harness left behind (its pid is in their name)."""
    for ln in sh("ip", "netns", "list", check=False).splitlines():
        name = ln.split()[0] if ln.split() else ""
        m = re.match(r"dpi[AB]-(\d+)-\d+$", name)
        if m and not os.path.exists("/proc/%s" % m.group(1)):
            subprocess.run(["ip", "netns", "del", name], stderr=subprocess.DEVNULL)


def on_term(sig, frame):
    # meson's timeout and Ctrl-C: unwind, so every finally removes its namespaces.
    raise KeyboardInterrupt("signal %d" % sig)


def capture_settle(path, quiet=1.0, limit=15.0):
    """Wait until the capture file has stopped growing for `quiet` seconds.

    The peers have exited, but dumpcap may still be draining its kernel buffer
    (a TPACKET_V3 block is handed over only when full or after its timeout);
    stopping it at once would cut off the last packets, the closing ones."""
    end = time.time() + limit
    last, since = -1, time.time()
    while time.time() < end:
        try:
            size = os.path.getsize(path)
        except OSError:
            size = -1
        if size != last:
            last, since = size, time.time()
        elif time.time() - since >= quiet:
            return
        time.sleep(0.1)


def capture_dropped(lines):
    """Packets the capture itself lost: dumpcap's per-interface statistics,
    pcap (the kernel ring overran) + dumpcap + flushed. Not ps_ifdrop: what
    the interface dropped before the tap (a veth's backlog full under a
    burst, a link taken down) never reached B, like a loss on the wire,
    and the capture shows exactly what B received."""
    n = 0
    for ln in lines:
        m = re.search(r"\(pcap:(\d+)/dumpcap:(\d+)/flushed:(\d+)/ps_ifdrop:\d+\)", ln)
        if m:
            n += sum(int(x) for x in m.groups())
    return n


def tshark_packets(cap):
    """Every SCTP packet of a capture as tshark sees it, CRC32c checked;
    `supported`: the chunk types an INIT or INIT ACK lists in its Supported
    Extensions parameter (RFC 5061). `t`: its capture time (seconds since
    the epoch, the harness's clock); `link`: the link it was captured on
    (i of b<i>: 0 is network A); `ppid`: the largest PPID of its DATA
    chunks (the message numbers of interop_msg.h), -1 when none."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", "sctp && !icmp && !icmpv6", "-T",
             "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             "-e", "frame.number", "-e", "ip.src", "-e", "ip.dst", "-e", "ipv6.src",
             "-e", "ipv6.dst", "-e", "sctp.chunk_type", "-e", "sctp.checksum.status",
             "-e", "udp.dstport", "-e", "sctp.supported_chunk_type",
             "-e", "frame.time_epoch", "-e", "frame.interface_id",
             "-e", "sctp.data_payload_proto_id")
    pk = []
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != 12 or not f[0].isdigit():
            continue
        pk.append({"frame": int(f[0]), "src": f[1] or f[3], "dst": f[2] or f[4],
                   "chunks": [int(x) for x in f[5].split(",") if x],
                   "crc": f[6], "udp": f[7] != "",
                   "supported": [int(x) for x in f[8].split(",") if x],
                   "t": float(f[9]), "link": int(f[10] or 0),
                   "ppid": max([int(x, 0) for x in f[11].split(",") if x] or [-1])})
    return pk


def tshark_count(cap, flt):
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", flt, "-T", "fields", "-e",
             "frame.number")
    return len([x for x in out.split() if x.isdigit()])


def judge_capture(cap, decode, mode):
    """tshark's verdicts on a capture, and dpsctp-decode's agreement. [] when fine."""
    errs = []
    pk = tshark_packets(cap)
    if not pk:
        return ["the capture holds no SCTP packet"], pk
    bad = [p["frame"] for p in pk if "0" in p["crc"].split(",")]
    if bad:
        errs.append("tshark: bad CRC32c in frames %s" % bad[:10])
    unverified = [p["frame"] for p in pk if "1" not in p["crc"].split(",")]
    if unverified:
        errs.append("tshark: checksum not verified in frames %s" % unverified[:10])
    malformed = tshark_count(cap, "_ws.malformed")
    if malformed:
        errs.append("tshark: %d malformed packets" % malformed)
    if is_udp(mode) and not all(p["udp"] for p in pk):
        errs.append("udp mode: SCTP packets outside UDP")
    if not is_udp(mode) and any(p["udp"] for p in pk):
        errs.append("raw mode: SCTP packets inside UDP")
    # dpsctp-decode on the same file: the same packets, chunks and verdicts.
    r = subprocess.run([decode, "--json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    dec = {}
    for ln in r.stdout.splitlines():
        o = json.loads(ln)
        dec[o["frame"]] = o
    for p in pk:
        o = dec.get(p["frame"])
        if o is None:
            errs.append("dpsctp-decode: frame %d missing" % p["frame"])
            break
        types = [c["type_id"] for c in o.get("chunks") or []]
        if types != p["chunks"] or o.get("checksum") != "ok" or o.get("error"):
            errs.append("dpsctp-decode disagrees on frame %d: %s %s %s vs tshark %s" %
                        (p["frame"], types, o.get("checksum"), o.get("error"), p["chunks"]))
            break
    if len(dec) != len(pk):
        errs.append("dpsctp-decode saw %d SCTP packets, tshark %d" % (len(dec), len(pk)))
    return errs, pk


def sent_by(pk, src_ips, ctype):
    return sum(1 for p in pk if p["src"] in src_ips for c in p["chunks"] if c == ctype)


def offers(pk, src_ips, ctype):
    """INIT and INIT ACK chunks from src_ips whose Supported Extensions list ctype."""
    return sum(1 for p in pk if p["src"] in src_ips and ctype in p["supported"]
               for c in p["chunks"] if c in (INIT, INIT_ACK))


# --- the cases --------------------------------------------------------------
#
# A case says what the client and the server are told (the same options for
# dpsctp-peer and the other peer), what each must print or return, and what
# the capture must show. `run_case` plays it with dpsctp in either role.

def opt_mode(prog, mode):
    v6 = ["-6"] if prog != "dpsctp" and is_v6(mode) else []
    if not is_udp(mode):
        return v6
    return v6 + (["--udp"] if prog != "dpsctp" else ["--udp-encap"])


class Run:
    def __init__(self, case, mode, direction, build, keep):
        self.case, self.mode, self.dir = case, mode, direction
        self.build, self.keep = build, keep
        self.errs = []
        self.notes = []
        self.tmp = tempfile.mkdtemp(prefix="dpsctp-interop-")
        self.cap = os.path.join(self.tmp, "link.pcapng")
        self.counters = os.path.join(self.tmp, "dpsctp-counters.txt")
        # --peer dpsctp: the counters of the dpsctp-peer in namespace B.
        self.counters_b = os.path.join(self.tmp, "dpsctp-b-counters.txt")

    @property
    def name(self):
        return "%s/%s/%s" % (self.case["name"], self.dir, self.mode)

    def side_of(self, role):
        """The namespace side of a role: "a" is dpsctp's, "b" the other stack's."""
        return "a" if (role == "server") == (self.dir == "dpsctp-server") else "b"

    # The argv of one side: dpsctp-peer or the other peer, client or server.
    def argv(self, prog, role, extra, net):
        if prog == "dpsctp":
            # Side b is dpsctp too with --peer dpsctp: B's veths, B's
            # addresses, its own lcore (the second, when there is one) and
            # counters file.
            side = self.side_of(role)
            ips, plen = addrs_of(side, self.mode)
            dev = "a" if side == "a" else "e"  # side b's ports: Net.up's e<i>
            if net.ports > 1:
                # One port per network: --ip ADDR/PREFIX,port=N (docs/PORTS.md).
                dp = []
                for i in range(net.paths):
                    dp += ["--port", "net_af_packet%d,iface=%s%d" % (i, dev, i),
                           "--ip", "%s/%d%s" % (ips[i], plen, ",port=%d" % i if i else "")]
            else:
                dp = ["--port", "net_af_packet0,iface=%s" %
                      (net.dp_iface if side == "a" else "e0")]
                for i in range(net.paths):
                    dp += ["--ip", "%s/%d" % (ips[i], plen)]
            dp += opt_mode(prog, self.mode) + self.case.get("dp_opts", [])
            dp += ["--counters", self.counters if side == "a" else self.counters_b]
            who = (["-s"] if role == "server" else
                   ["-c", ",".join(addrs_of("b" if side == "a" else "a",
                                            self.mode)[0][:net.paths])])
            eal = EAL
            if side == "b":
                lc = EAL.index("-l")
                eal = EAL[:lc] + EAL[lc + 2:] + [
                    "-l", "1" if (os.cpu_count() or 1) > 1 else "0",
                    "--file-prefix", "dpib%d" % os.getpid()]
            return ([os.path.join(self.build, "dataplane/tests/interop/dpsctp-peer")] + eal +
                    ["--"] + dp + who + extra)
        who = (["-s"] if role == "server" else
               ["-c", ",".join(addrs_of("a", self.mode)[0][:net.paths])])
        args = who + opt_mode(prog, self.mode) + self.case.get("peer_opts", []) + extra
        if prog == "linux":
            ips, plen = addrs_of("b", self.mode)
            nics = ",".join("t%d=%s/%d" % (i, ips[i], plen) for i in range(net.paths))
            return (["python3", os.path.join(HERE, "linux_vm.py"), "run", "--dir", VM_DIR,
                     "--nic", nics, "--"] + args)
        return [os.path.join(self.build, PEERS[prog]["prog"])] + args

    def fail(self, msg):
        self.errs.append(msg)

    def go(self):
        c = self.case
        net = Net(c.get("paths", 1), self.mode, c.get("ports", 1))
        t0 = time.time()
        try:
            net.up()
            # dumpcap (tshark's capture engine) for its per-interface drop
            # statistics. -B: a 64 MiB kernel buffer per interface. With the default 2 MiB,
            # a data run (~15 MB/s) overruns it whenever dumpcap is starved for
            # a tenth of a second on a loaded 2-core machine, and the capture
            # then misses what the peers did (a CI run lost a whole SHUTDOWN
            # exchange that way).
            cap = net.start("dumpcap", net.ns_b,
                            # -N/-C: its queue between the interfaces' capture
                            # threads and the writer (with two interfaces it
                            # dropped ~1,000 packets a run at the defaults).
                            ["dumpcap", "-n", "-q", "-N", "4000000", "-C", str(1 << 30)] +
                            sum((["-i", "b%d" % i, "-B", "64"] for i in range(net.paths)),
                                []) +
                            ["-w", self.cap], self.tmp)
            if cap.wait_line(r"Capturing on", 10) is None:
                raise RuntimeError("dumpcap did not start capturing")
            c["play"](self, net)
            capture_settle(self.cap)
            cap.kill(signal.SIGINT)
            cap.wait(10)
            # The wire checks below mean nothing on an incomplete capture:
            # say so instead of blaming a peer for packets dumpcap never saw.
            lost = capture_dropped(cap.lines)
            if lost:
                raise RuntimeError("the capture dropped %d packets (%s)" %
                                   (lost, "; ".join(l for l in cap.lines if "dropped" in l)))
            errs, pk = judge_capture(self.cap, os.path.join(self.build,
                                                            "apps/dpsctp-decode/dpsctp-decode"),
                                     self.mode)
            self.errs += errs
            if "wire" in c and pk:
                c["wire"](self, net, pk)
        except Exception as e:  # a set-up failure is this run's failure
            self.fail("harness: %s" % e)
            with open(os.path.join(self.tmp, "harness.log"), "w") as f:
                traceback.print_exc(file=f)
        finally:
            net.down()
        self.secs = time.time() - t0
        ok = not self.errs
        if not ok or os.environ.get("INTEROP_KEEP_ALL"):
            dst = os.path.join(self.keep, self.name.replace("/", "_"))
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(self.tmp, dst)
            self.notes.append("artifacts: %s" % dst)
        shutil.rmtree(self.tmp, ignore_errors=True)
        return ok

    # Helpers the cases use.
    def roles(self):
        """(client program, server program) for this direction."""
        return ((PEER, "dpsctp") if self.dir == "dpsctp-server"
                else ("dpsctp", PEER))

    def ns_of(self, role, net):
        return net.ns_a if self.side_of(role) == "a" else net.ns_b

    def start(self, net, prog, role, extra, name=None):
        return net.start(name or "%s-%s" % (prog, role), self.ns_of(role, net),
                         self.argv(prog, role, extra, net), self.tmp)

    def server_up(self, srv, prog):
        # dpsctp-peer says nothing until an association comes up: give its
        # EAL and port a moment; the other peer says when it listens.
        if prog != "dpsctp":
            if srv.wait_line(r"listening", PEERS[prog]["start_s"]) is None:
                self.fail("%s server did not start" % prog)
        else:
            time.sleep(1.5)

    def expect_rc(self, p, want, timeout, what):
        rc = p.wait(timeout * PEERS[PEER]["slow"])
        if rc != want:
            tail = " | ".join(p.lines[-3:])
            self.fail("%s exited %s, expected %s (%s)" % (what, rc, want, tail))
        return rc

    def read_counters(self):
        d = {}
        try:
            for ln in open(self.counters):
                k, v = ln.split()
                d[k] = int(v)
        except OSError:
            pass
        return d

    def addrs(self, prog):
        return set(addrs_of("a" if prog == "dpsctp" else "b", self.mode)[0])


def play_simple(client_opts, server_opts, client_rc=0, server_rc=0, timeout=180):
    """Start the server, run the client to its end, then the server's."""

    def play(run, net):
        cp, sp = run.roles()
        srv = run.start(net, sp, "server", server_opts(sp))
        run.server_up(srv, sp)
        cli = run.start(net, cp, "client", client_opts(cp))
        run.expect_rc(cli, client_rc, timeout, "the %s client" % cp)
        run.expect_rc(srv, server_rc, 20, "the %s server" % sp)
        run.client, run.server = cli, srv
    return play


def wire_closed_by(ctype, side):
    """The capture shows `ctype` sent by the client or the server side, not the other."""

    def wire(run, net, pk):
        cp, sp = run.roles()
        me, other = (cp, sp) if side == "client" else (sp, cp)
        if sent_by(pk, run.addrs(me), ctype) == 0:
            run.fail("no chunk type %d from the %s (%s)" % (ctype, side, me))
        if sent_by(pk, run.addrs(other), ctype) != 0:
            run.fail("chunk type %d from the other side (%s)" % (ctype, other))
        if ctype == SHUTDOWN:
            if sent_by(pk, run.addrs(other), SHUTDOWN_ACK) == 0:
                run.fail("no SHUTDOWN ACK from %s" % other)
            if sent_by(pk, run.addrs(me), SHUTDOWN_COMPLETE) == 0:
                run.fail("no SHUTDOWN COMPLETE from %s" % me)
    return wire


def wire_data(run, net, pk):
    cp, sp = run.roles()
    n_c, n_s = sent_by(pk, run.addrs(cp), DATA), sent_by(pk, run.addrs(sp), DATA)
    if n_c == 0 or n_s == 0:
        run.fail("DATA chunks: %d from the client, %d from the server" % (n_c, n_s))
    n_i = sent_by(pk, run.addrs(cp) | run.addrs(sp), I_DATA)
    if n_i:
        run.fail("%d I-DATA chunks on an association that did not negotiate I-DATA" % n_i)
    run.notes.append("%d packets, DATA %d/%d" % (len(pk), n_c, n_s))
    wire_closed_by(SHUTDOWN, "client")(run, net, pk)


def wire_data_default(run, net, pk):
    """The data case: dpsctp offers I-DATA by default, the peer (without
    --idata) does not: DATA both ways, nothing negotiated. (dpsctp's INIT
    ACK lists only what the INIT offered too.)"""
    wire_data(run, net, pk)
    if run.roles()[0] == "dpsctp" and offers(pk, run.addrs("dpsctp"), I_DATA) == 0:
        run.fail("dpsctp's INIT did not offer I-DATA (its default)")
    if offers(pk, run.addrs(PEER), I_DATA) != 0:
        run.fail("%s offered I-DATA without --idata" % PEER)
    ext = run.read_counters().get("stats.extensions", 0)
    if ext & DPSCTP_EXT_I_DATA:
        run.fail("dpsctp's association negotiated I-DATA with a peer that did not offer it "
                 "(extensions 0x%x)" % ext)


def wire_heartbeats(run, net, pk):
    for prog in ("dpsctp", PEER):
        hb, ack = sent_by(pk, run.addrs(prog), HB), sent_by(pk, run.addrs(prog), HB_ACK)
        if hb < 2 or ack < 2:
            run.fail("%s sent %d HEARTBEAT and %d HEARTBEAT ACK (want 2+ each)" %
                     (prog, hb, ack))
        run.notes.append("%s HB %d, HB ACK %d" % (prog, hb, ack))


def play_restart(run, net):
    """The other peer is killed (-9) and started again, in either role.

    Killing usrsctp-peer kills its stack with it; killing the Linux guest's
    QEMU is the same for the kernel's SCTP: a host that vanished, nothing
    sent, and a new one that knows nothing of the association."""
    cp, sp = run.roles()
    them = PEER
    common = ["-n", "200", "-l", "9000", "-S", "8", "--echo"]  # the RFC profile offers 10 streams
    if cp == them:
        # The peer as client from a fixed port, killed while idle; the new one
        # sends an INIT on the same ports: dpsctp restarts the association
        # (RFC 9260 §5.2.4) and the new process's messages all come back.
        # RFC profile: heartbeats every 30 s, so dpsctp still holds the old
        # association when the new INIT comes (with the DC profile's 50 ms it
        # has already seen the peer gone and closed it: then this is a new
        # association, which the RFC allows as well).
        srv = run.start(net, "dpsctp", "server", ["--echo", "--profile", "rfc"])
        run.server_up(srv, "dpsctp")
        c1 = run.start(net, them, "client", common + ["--lport", "40000", "--hold", "60"],
                       name="%s-client-1" % them)
        if c1.wait_line(r"batch 0:", 60 * PEERS[them]["slow"]) is None:
            run.fail("the first %s client did not finish its batch" % them)
        time.sleep(0.3)
        c1.kill(signal.SIGKILL)
        c1.wait(5)
        c2 = run.start(net, them, "client", common + ["--lport", "40000"],
                       name="%s-client-2" % them)
        run.expect_rc(c2, 0, 120, "the restarted %s client" % them)
        time.sleep(0.5)
        if not srv.has(r"restart"):
            run.fail("dpsctp did not restart the association (RFC 9260 §5.2.4)")
        srv.kill(signal.SIGTERM)
        run.expect_rc(srv, 0, 20, "the dpsctp server")
    else:
        # The peer as server killed and started again while dpsctp holds the
        # association idle: its heartbeat meets a stack that knows nothing
        # (ABORT, §8.4 rule 8, or ICMP protocol unreachable while nobody
        # listens); dpsctp's client reconnects and sends its batch again.
        # The Linux guest takes seconds to boot: dpsctp must still be idle
        # (not yet closing) when it notices, by a heartbeat that meets the
        # new kernel or by losing the association to unanswered heartbeats
        # (the DC profile's 50 ms interval: about 4 s) and reconnecting.
        hold = "8" if them == "linux" else "2"
        s1 = run.start(net, them, "server", ["--echo"], name="%s-server-1" % them)
        run.server_up(s1, them)
        cli = run.start(net, "dpsctp", "client", common + ["--hold", hold, "--reconnect"])
        if cli.wait_line(r"batch 0:", 60 * PEERS[them]["slow"]) is None:
            run.fail("the dpsctp client did not finish its first batch")
        s1.kill(signal.SIGKILL)
        s1.wait(5)
        s2 = run.start(net, them, "server", ["--echo"], name="%s-server-2" % them)
        run.expect_rc(cli, 0, 120, "the dpsctp client")
        run.expect_rc(s2, 0, 20, "the restarted %s server" % them)
        if not cli.has(r"reconnecting"):
            run.fail("the dpsctp client never saw the restart")


def play_multihome(run, net):
    """Two addresses a side; b0 (the primary path's veth) goes down between
    the two batches of the transfer, which the second must cross."""
    cp, sp = run.roles()
    srv = run.start(net, sp, "server", server_once()(sp))
    run.server_up(srv, sp)
    # The client idles 1 s after the first batch: a batch takes tens of
    # milliseconds here, so a cut made once "batch 0" is read could come
    # after the second had gone too (a loaded CI machine: no failover at
    # all). The cut lands in the hold, and the second batch meets it.
    cli = run.start(net, cp, "client", ["-n", "1500", "-l", "9000", "--echo", "--batches",
                                        "2", "--hold", "1"])
    if cli.wait_line(r"batch 0:", 60 * PEERS[PEER]["slow"]) is None:
        run.fail("no first batch")
    run.t_down = time.time()
    sh("ip", "-n", net.ns_b, "link", "set", "b0", "down")
    run.expect_rc(cli, 0, 180, "the %s client" % cp)
    run.expect_rc(srv, 0, 30, "the %s server" % sp)


def carries_data(p):
    """A packet with DATA or I-DATA chunks (dpsctp against itself: I-DATA)."""
    return DATA in p["chunks"] or I_DATA in p["chunks"]


def wire_multihome(run, net, pk):
    # After the cut, data must flow on the second path, both ways.
    a2, b2 = addrs_of("a", run.mode)[0][1], addrs_of("b", run.mode)[0][1]
    on2 = [p for p in pk if carries_data(p) and p["src"] in (a2, b2)]
    back2 = [p for p in on2 if p["src"] == a2]
    fwd2 = [p for p in on2 if p["src"] == b2]
    if not back2 or not fwd2:
        run.fail("no DATA on the secondary path after failover (%d from dpsctp, %d from "
                 "%s)" % (len(back2), len(fwd2), PEER))
    run.notes.append("DATA on path 2: %d from dpsctp, %d from %s" % (len(back2), len(fwd2),
                                                                    PEER))


PORTS_N, PORTS_BATCHES = 1000, 3  # multihome-ports: messages per batch, batches


def peer_a_addr(run, role):
    """The network A address of the other side of `role`'s program."""
    return addrs_of("b" if run.side_of(role) == "a" else "a", run.mode)[0][0]


def play_multihome_ports(run, net):
    """One port per network (dpsctp; with --peer dpsctp both sides), each
    side's primary path on network A (--primary): network A (b0) down after
    the first of three batches, back up after the second; the client holds
    2 s before the third, while the heartbeats find network A again."""
    cp, sp = run.roles()
    prim = {r: ["--primary", peer_a_addr(run, r)] for r in ("client", "server")}
    srv = run.start(net, sp, "server", server_once()(sp) + prim["server"])
    run.server_up(srv, sp)
    cli = run.start(net, cp, "client", ["-n", str(PORTS_N), "-l", "9000", "--echo",
                                        "--batches", str(PORTS_BATCHES), "--hold", "2"] +
                    prim["client"])
    if cli.wait_line(r"batch 0:", 60 * PEERS[PEER]["slow"]) is None:
        run.fail("no first batch")
    # --cut link: network A's far end (b0) goes down, the other side's
    # interface; --cut own: dpsctp's own port on network A (a0), as when
    # the host's NIC loses its link, so its af_packet socket sees the
    # interface go down and up (ENETDOWN, frames left in its TX ring).
    ns, dev = (net.ns_a, "a0") if CUT == "own" else (net.ns_b, "b0")
    sh("ip", "-n", ns, "link", "set", dev, "down")
    run.t_cut = time.time()  # network A is down from here ...
    if cli.wait_line(r"batch 1:", 120 * PEERS[PEER]["slow"]) is None:
        run.fail("no second batch (failover to network B)")
    run.t_up = time.time()  # ... to here
    sh("ip", "-n", ns, "link", "set", dev, "up")
    run.expect_rc(cli, 0, 180, "the %s client" % cp)
    run.expect_rc(srv, 0, 30, "the %s server" % sp)
    run.client, run.server = cli, srv
    # No message lost or duplicated: every batch whole at the client (each
    # echo once, intact; one of another batch, or twice, is "bad"), and the
    # server took and echoed exactly the messages sent, no more.
    for k in range(PORTS_BATCHES):
        if not cli.has(r"batch %d: %d sent, %d echoed, 0 bad" % (k, PORTS_N, PORTS_N)):
            run.fail("the client's batch %d: %s" % (k, cli.wait_line(r"batch %d:" % k, 0)))
    total = PORTS_N * PORTS_BATCHES
    if not srv.has(r"server: %d messages, %d echoed" % (total, total)):
        run.fail("the server took or echoed other than %d messages: %s" %
                 (total, srv.wait_line(r"server: \d+ messages", 0)))
    for role, p in (("client", cli), ("server", srv)):
        a_ip = peer_a_addr(run, role)
        if not p.has(r"primary %s set" % re.escape(a_ip)):
            run.fail("the %s did not make %s its primary path" % (role, a_ip))
        # dpsctp's path to the peer's network A address: unreachable (2)
        # after the cut, available (1) again after it came back (its
        # PEER_ADDR_CHANGE events, printed by dpsctp-peer).
        if (cp, sp)[role == "server"] != "dpsctp":
            continue
        states = [int(m.group(1)) for m in (re.search(r"path %s state (\d+)" % re.escape(a_ip),
                                                      ln) for ln in p.lines) if m]
        down = states.index(2) if 2 in states else -1
        if down < 0:
            run.fail("the dpsctp %s never marked %s unreachable" % (role, a_ip))
        elif 1 not in states[down:]:
            run.fail("the dpsctp %s never found %s again after network A came back" %
                     (role, a_ip))


def wire_multihome_ports(run, net, pk):
    """Each side's DATA (or I-DATA), judged on the capture by the link it
    crossed (b0 is network A, b1 network B; not by source address: usrsctp
    sends to network A's address from its network B address): on A before
    the cut, on B while A is down, back on A in the third batch (from the
    first chunk with a PPID of 2n or more: the message numbers)."""
    wire_multihome(run, net, pk)
    if not hasattr(run, "t_up"):
        return  # the play failed before network A came back
    third = (PORTS_BATCHES - 1) * PORTS_N
    counts = []
    for side in ("a", "b"):
        who = "dpsctp" if side == "a" else PEER
        if PEER == "dpsctp":
            who = "dpsctp in %s" % side.upper()
        ips = addrs_of(side, run.mode)[0][:2]
        data = [p for p in pk if carries_data(p) and p["src"] in ips]

        def on(pks, link):
            return sum(1 for p in pks if p["link"] == link)
        before = [p for p in data if p["t"] < run.t_cut]
        cut = [p for p in data if run.t_cut <= p["t"] < run.t_up]
        # The third batch from its first chunk with a PPID of it on (an
        # I-DATA chunk carries the PPID in its first fragment only).
        t3 = min([p["t"] for p in data if p["ppid"] >= third] or [float("inf")])
        last = [p for p in data if p["t"] >= t3]
        ph = {"before the cut": before, "A down": cut, "third batch": last}
        # How soon it probed network A once back: its first HEARTBEAT there.
        hb = [p["t"] - run.t_up for p in pk if p["src"] in ips and p["link"] == 0 and
              HB in p["chunks"] and p["t"] >= run.t_up]
        counts.append("%s %s, first HB on A %s after A up" % (
            who, ", ".join("%s %d/%d" % (k, on(v, 0), on(v, 1)) for k, v in ph.items()),
            "%.2f s" % hb[0] if hb else "never"))
        # Most on A, not all: a retransmission goes to another active path
        # (RFC 9260 §6.4.1), and dpsctp's DC profile marks a path
        # potentially failed after one timeout (RFC 7829).
        if on(before, 0) <= on(before, 1):
            run.fail("%s sent %d DATA packets on network A before the cut, %d on B "
                     "(its primary is A)" % (who, on(before, 0), on(before, 1)))
        if on(cut, 1) == 0:
            run.fail("%s sent no DATA on network B while network A was down" % who)
        if on(last, 0) <= on(last, 1):
            run.fail("%s's DATA did not return to network A in the third batch "
                     "(%d packets on A, %d on B)" % (who, on(last, 0), on(last, 1)))
    run.notes.append("DATA packets on network A/B: " + "; ".join(counts))


def wire_impair(run, net, pk):
    k = run.read_counters()
    if k.get("impair_dropped", 0) == 0 or k.get("impair_rx_dropped", 0) == 0:
        run.fail("the impairment stages dropped nothing (tx %d, rx %d)" %
                 (k.get("impair_dropped", 0), k.get("impair_rx_dropped", 0)))
    run.notes.append("impairment dropped tx %d, rx %d" % (k.get("impair_dropped", 0),
                                                            k.get("impair_rx_dropped", 0)))


def seqs_listed(proc, what):
    """The message numbers a peer listed on its "<role>: <what>: a,b,c" lines."""
    out = set()
    rx = re.compile(r"^\w+: %s: ([\d,]+)$" % what)
    for ln in proc.lines:
        m = rx.match(ln.strip())
        if m:
            out.update(int(x) for x in m.group(1).split(","))
    return out


def fwd_tsn_supported(run, cap, prog):
    """INIT and INIT ACK chunks from `prog` that carry Forward-TSN-Supported."""
    src = " || ".join("%s.src == %s" % ("ipv6" if is_v6(run.mode) else "ip", a)
                      for a in sorted(run.addrs(prog)))
    return tshark_count(cap, "(sctp.chunk_type == %d || sctp.chunk_type == %d) && "
                        "sctp.parameter_type == 0x%x && (%s)" %
                        (INIT, INIT_ACK, FWD_TSN_SUPPORTED, src))


def pr_wire_account(cap, sender_ips, missing, idata=False):
    """What the wire says of each message the receiver never got, judging
    the receiver by its own SACKs (the capture is on B's side: a FORWARD
    TSN the receiver acted on was captured before the SACK that shows it).

    A TSN the cumulative TSN ACK passed while no FORWARD TSN seen so far
    covered it was received, with every TSN before it: its message must be
    delivered. (A gap-acknowledged one need not be: a sender that abandoned
    its message before hearing of it skips its stream sequence number with
    the FORWARD TSN, and the receiver drops it from its ordering queue,
    RFC 3758 §3.6.) Returns (received, unforwarded, skipped): the missing
    messages whose every fragment (B to E, all on the wire) was received so
    (the receiver lost them); those with a fragment above the last FORWARD
    TSN (the association closed, so it was received too); and those the
    sender skipped on the wire. A sender may abandon the rest of a message
    after its first fragments (they never get a TSN), and dpsctp's --impair
    drops before the capture: a message with a fragment the wire never
    showed was not all received. Messages never sent at all are in none.

    With I-DATA (RFC 8260) a fragment is its message's by (stream, U bit,
    MID), not by TSN order: fragments of messages on other streams come
    between, only the first (B) carries the PPID and the others an FSN, so
    a message is whole when the wire showed its B, its E and every FSN
    between. A message whose B the wire never showed counts as never sent
    (it was not all received). An I-FORWARD TSN names what it skips
    (stream, U bit, MID; RFC 8260 §2.3.1): a listed message not received
    whole is skipped whatever its TSNs, some of which may lie above the new
    cumulative TSN (sent before the sender gave the message up: usrsctp)."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", "sctp && !icmp && !icmpv6", "-T",
             "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             "-e", "ip.src", "-e", "ipv6.src", "-e", "sctp.data_tsn_raw",
             "-e", "sctp.data_payload_proto_id", "-e", "sctp.sack_cumulative_tsn_ack_raw",
             "-e", "sctp.i_forward_tsn_tsn" if idata else "sctp.forward_tsn_tsn",
             "-e", "sctp.data_b_bit", "-e", "sctp.data_e_bit",
             "-e", "sctp.data_sid", "-e", "sctp.data_u_bit", "-e", "sctp.data_mid",
             "-e", "sctp.data_fsn", "-e", "sctp.i_forward_tsn_sid",
             "-e", "sctp.i_forward_tsn_u_bit", "-e", "sctp.forward_tsn_mid")
    ints = lambda f: [int(x, 0) for x in f.split(",") if x]  # noqa: E731
    base = None
    rel = lambda t: (t - base + (1 << 31)) % (1 << 32) - (1 << 31)  # noqa: E731  serial numbers
    fwd, cum = None, None
    received, seq_of, ends = set(), {}, set()
    # I-DATA: TSN -> (sid, U, MID); (sid, U, MID) -> message number, FSNs
    # seen, the E fragment's FSN; (sid, U) -> the highest MID an I-FORWARD
    # TSN skipped.
    key_of, seq_of_key, fsns, last_fsn, skip_to = {}, {}, {}, {}, {}
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != 15:
            continue
        src = f[0] or f[1]
        tsns, ppids = ints(f[2]), ints(f[3])
        if src in sender_ips:
            if base is None and tsns:
                base = tsns[0]
            if idata:
                pp, fs = iter(ppids), iter(ints(f[11]))
                for t, b, e, k in zip(tsns, ints(f[6]), ints(f[7]),
                                      zip(ints(f[8]), ints(f[9]), ints(f[10]))):
                    if b:
                        seq_of_key[k] = next(pp, None)
                    fsn = 0 if b else next(fs, None)
                    fsns.setdefault(k, set()).add(fsn)
                    if e:
                        last_fsn[k] = fsn
                    key_of[rel(t)] = k
                for k in zip(ints(f[12]), ints(f[13]), ints(f[14])):
                    skip_to[k[:2]] = max(skip_to.get(k[:2], k[2]), k[2])
            for t, ppid, b, e in ([] if idata else zip(tsns, ppids, ints(f[6]), ints(f[7]))):
                seq_of[rel(t)] = ppid
                ends.update(x for x, on in (((rel(t), "B"), b), ((rel(t), "E"), e)) if on)
            if base is not None and ints(f[5]):
                r = max(rel(t) for t in ints(f[5]))
                fwd = r if fwd is None else max(fwd, r)
            continue
        cums = ints(f[4])
        if base is None or not cums:
            continue
        c = max(rel(x) for x in cums)
        if cum is not None and c > cum:
            received.update(t for t in range(cum + 1, c + 1) if fwd is None or t > fwd)
        cum = c if cum is None else max(cum, c)
    key_of_seq = {}
    for t, k in key_of.items():
        if seq_of_key.get(k) is not None:
            seq_of[t] = seq_of_key[k]
            key_of_seq[seq_of_key[k]] = k
    tsns_of = {}
    for t, seq in seq_of.items():
        tsns_of.setdefault(seq, set()).add(t)
    got, unforwarded, skipped = set(), set(), set()
    for seq in missing:
        ts = tsns_of.get(seq)
        if not ts:
            continue
        if idata:
            k = key_of_seq[seq]
            whole = k in last_fsn and fsns[k] == set(range(last_fsn[k] + 1))
        else:
            whole = ((min(ts), "B") in ends and (max(ts), "E") in ends and
                     len(ts) == max(ts) - min(ts) + 1)
        if whole and ts <= received:
            got.add(seq)
        elif idata and k[:2] in skip_to and k[2] <= skip_to[k[:2]]:  # small MIDs: no wrap
            skipped.add(seq)
        elif fwd is None or max(ts) > fwd:
            unforwarded.add(seq)
        else:
            skipped.add(seq)
    return got, unforwarded, skipped


def wire_pr(run, net, pk):
    """PR-SCTP under loss: what the receiver missed the sender abandoned, and
    said so on the wire with FORWARD TSN (I-FORWARD TSN with I-DATA, and no
    FORWARD TSN); both offered the extension."""
    cp, sp = run.roles()
    idata = run.case.get("idata", False)
    fwd_type = I_FORWARD_TSN if idata else FORWARD_TSN
    cli, srv = run.client, run.server
    abandoned = seqs_listed(cli, "abandoned")
    missing = seqs_listed(srv, "missing")
    if cli.wait_line(r"pr-sctp: \d+ sent", 0) is None:
        run.fail("the %s client printed no pr-sctp line" % cp)
    if srv.wait_line(r"checked: \d+ received, 0 duplicated, 0 out of order, 0 bad", 0) is None:
        run.fail("the %s server's check: %s" % (sp, srv.wait_line(r"checked:", 0)))
    acked, unforwarded, skipped = pr_wire_account(run.cap, run.addrs(cp), missing, idata)
    # (Linux reports no message abandoned after all of it was sent, below:
    # with messages of one chunk, none; the wire shows them.)
    if not abandoned and not (cp == "linux" and skipped):
        run.fail("no message abandoned: the case proves nothing")
    if acked:
        run.fail("%s's cumulative TSN ACK passed every fragment of %d messages it never "
                 "delivered: %s" %
                 (sp, len(acked), sorted(acked)[:20]))
    if unforwarded:
        run.fail("%d messages not delivered, not under any FORWARD TSN: %s" %
                 (len(unforwarded), sorted(unforwarded)[:20]))
    unreported = missing - abandoned
    if cp == "linux":
        # Linux (6.1) tells its application of a message abandoned before
        # all of it was sent, not of one abandoned after (no SEND_FAILED for
        # a message whose every fragment went out, a fragment lost, and a
        # FORWARD TSN skipped it): for those the wire is the account.
        unreported -= skipped
        if skipped - abandoned:
            run.notes.append("%d skipped on the wire without SEND_FAILED" %
                             len(skipped - abandoned))
    if unreported:
        run.fail("%d messages missing at the receiver but not abandoned by the sender: %s" %
                 (len(unreported), sorted(unreported)[:20]))
    fwd = sent_by(pk, run.addrs(cp), fwd_type)
    if fwd == 0:
        run.fail("no %s from the sender (%s)" % ("I-FORWARD TSN" if idata else "FORWARD TSN",
                                                 cp))
    for prog in (cp, sp):
        if fwd_tsn_supported(run, run.cap, prog) == 0:
            run.fail("%s's INIT/INIT ACK lacks Forward-TSN-Supported" % prog)
    k = run.read_counters()
    if k.get("stats.extensions", 0) & DPSCTP_EXT_PR_SCTP == 0:
        run.fail("dpsctp's association did not negotiate PR-SCTP (extensions 0x%x)" %
                 k.get("stats.extensions", 0))
    if idata:
        wire_idata_only(run, pk, [cp])
        # dpsctp lists I-FORWARD TSN beside I-DATA when it offers PR-SCTP,
        # in its INIT and in an INIT ACK to an INIT that listed it; Linux
        # (6.1) never lists it (nor need it: I-DATA with PR-SCTP implies it,
        # RFC 8260 §2.3).
        if offers(pk, run.addrs("dpsctp"), I_FORWARD_TSN) == 0 and (
                run.roles()[0] == "dpsctp" or offers(pk, run.addrs(PEER), I_FORWARD_TSN)):
            run.fail("dpsctp's INIT/INIT ACK does not list I-FORWARD TSN in Supported "
                     "Extensions")
        if sent_by(pk, run.addrs(cp) | run.addrs(sp), FORWARD_TSN):
            run.fail("FORWARD TSN on an association with I-DATA (RFC 8260 §2.3)")
    if cp == "dpsctp" and k.get("stats.abandoned_msgs", 0) == 0:
        run.fail("dpsctp sent with a policy under loss and abandoned nothing (its stats)")
    if sp == "dpsctp" and k.get("stats.fwd_tsn_in", 0) == 0:
        run.fail("dpsctp received no FORWARD TSN that moved its cumulative TSN (its stats)")
    run.notes.append("%d abandoned, %d missing, %s %d from %s; dpsctp abandoned %d, "
                     "fwd_tsn in %d" % (len(abandoned), len(missing),
                                        "I-FORWARD TSN" if idata else "FORWARD TSN", fwd, cp,
                                        k.get("stats.abandoned_msgs", 0),
                                        k.get("stats.fwd_tsn_in", 0)))


def wire_no_ext(run, net, pk):
    """dpsctp with --extensions none: no PR-SCTP or I-DATA offered, accepted or
    used (the peer offers both, with --idata)."""
    wire_data(run, net, pk)
    if fwd_tsn_supported(run, run.cap, "dpsctp") != 0:
        run.fail("dpsctp offered Forward-TSN-Supported with --extensions none")
    if offers(pk, run.addrs("dpsctp"), I_DATA) != 0:
        run.fail("dpsctp offered I-DATA with --extensions none")
    # The peer's INIT offers them (else nothing was turned down); its INIT ACK
    # need not: Linux answers an INIT without it with none.
    if run.roles()[0] == PEER and fwd_tsn_supported(run, run.cap, PEER) == 0:
        run.fail("%s's INIT did not offer Forward-TSN-Supported" % PEER)
    if run.roles()[0] == PEER and offers(pk, run.addrs(PEER), I_DATA) == 0:
        run.fail("%s's INIT did not offer I-DATA" % PEER)
    if sent_by(pk, run.addrs("dpsctp") | run.addrs(PEER), FORWARD_TSN) != 0:
        run.fail("FORWARD TSN on an association without PR-SCTP")
    if offers(pk, run.addrs("dpsctp"), RE_CONFIG) != 0:
        run.fail("dpsctp offered RE-CONFIG with --extensions none")
    if run.roles()[0] == PEER and offers(pk, run.addrs(PEER), RE_CONFIG) == 0:
        run.fail("%s's INIT did not offer RE-CONFIG" % PEER)
    if sent_by(pk, run.addrs("dpsctp") | run.addrs(PEER), RE_CONFIG) != 0:
        run.fail("RE-CONFIG on an association without it")
    if run.read_counters().get("stats.extensions", 0) != 0:
        run.fail("dpsctp's association has extensions 0x%x" %
                 run.read_counters().get("stats.extensions"))


def reconfig_offered(run, pk):
    """Both sides listed RE-CONFIG in Supported Extensions, and dpsctp's
    association negotiated it."""
    for prog in run.roles():
        if offers(pk, run.addrs(prog), RE_CONFIG) == 0:
            run.fail("%s's INIT/INIT ACK does not list RE-CONFIG in Supported Extensions" %
                     prog)
    ext = run.read_counters().get("stats.extensions", 0)
    if ext & DPSCTP_EXT_RECONFIG == 0:
        run.fail("dpsctp's association did not negotiate RE-CONFIG (extensions 0x%x)" % ext)


def reconf_params(cap, src_ips):
    """The RE-CONFIG parameters src_ips sent: a list of (type, stream list,
    sender's last assigned TSN, result) in capture order. tshark lists a
    frame's fields by kind, so the values are matched to the parameters
    that carry them, in order."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", "sctp.chunk_type == %d" % RE_CONFIG,
             "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             "-e", "ip.src", "-e", "ipv6.src", "-e", "sctp.parameter_type",
             "-e", "sctp.parameter_length", "-e", "sctp.parameter_reconfig_sid",
             "-e", "sctp.parameter_senders_last_assigned_tsn",
             "-e", "sctp.parameter_reconfig_response_result")
    ints = lambda f: [int(x, 0) for x in f.split(",") if x]  # noqa: E731
    res = []
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != 7 or (f[0] or f[1]) not in src_ips:
            continue
        sids, tsns, results = iter(ints(f[4])), iter(ints(f[5])), iter(ints(f[6]))
        for t, plen in zip(ints(f[2]), ints(f[3])):
            if t == OUT_SSN_RESET:
                res.append((t, [next(sids, None) for _ in range((plen - 16) // 2)],
                            next(tsns, None), None))
            elif t == IN_SSN_RESET:
                res.append((t, [next(sids, None) for _ in range((plen - 8) // 2)], None, None))
            elif t == RECONF_RESPONSE:
                res.append((t, [], None, next(results, None)))
            else:
                res.append((t, [], None, None))
    return res


def data_chunks(cap, src_ips):
    """(TSN, stream, SSN, U bit) of every DATA chunk src_ips sent."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", "sctp.chunk_type == %d" % DATA,
             "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             "-e", "ip.src", "-e", "ipv6.src", "-e", "sctp.data_tsn_raw", "-e", "sctp.data_sid",
             "-e", "sctp.data_ssn", "-e", "sctp.data_u_bit")
    ints = lambda f: [int(x, 0) for x in f.split(",") if x]  # noqa: E731
    res = []
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) == 6 and (f[0] or f[1]) in src_ips:
            res += list(zip(ints(f[2]), ints(f[3]), ints(f[4]), ints(f[5])))
    return res


def after(t, base):
    """TSN t comes after base (serial number arithmetic, RFC 1982)."""
    return 0 < (t - base) % (1 << 32) < (1 << 31)


def wire_reconf(kind, sid):
    """The client asked to reset stream `sid` (kind "out": its outgoing
    stream; "in": its incoming one, which the server then resets as its
    outgoing) after RECONF_AT messages: the resetting side's Outgoing SSN
    Reset Request names the stream, the other side answers "Success -
    Performed", and the resetting side's first DATA on the stream after the
    request's last assigned TSN has SSN 0 (an earlier one on it did not).
    Every echo came back once and in order (the client's check)."""

    def wire(run, net, pk):
        cp, sp = run.roles()
        reconfig_offered(run, pk)
        resetter, answerer = (cp, sp) if kind == "out" else (sp, cp)
        if kind == "in" and not any(t == IN_SSN_RESET and sid in sids
                                    for t, sids, _, _ in reconf_params(run.cap,
                                                                       run.addrs(cp))):
            run.fail("no Incoming SSN Reset Request for stream %d from the client (%s)" %
                     (sid, cp))
        reqs = [tsn for t, sids, tsn, _ in reconf_params(run.cap, run.addrs(resetter))
                if t == OUT_SSN_RESET and sid in sids]
        if not reqs:
            run.fail("no Outgoing SSN Reset Request for stream %d from %s" % (sid, resetter))
            return
        results = [r for t, _, _, r in reconf_params(run.cap, run.addrs(answerer))
                   if t == RECONF_RESPONSE]
        if PERFORMED not in results:
            run.fail("no Re-configuration Response \"Success - Performed\" from %s "
                     "(results %s)" % (answerer, results))
        last = reqs[0]
        data = [(t, ssn) for t, s, ssn, u in data_chunks(run.cap, run.addrs(resetter))
                if s == sid and not u]
        before = [ssn for t, ssn in data if not after(t, last)]
        later = sorted((t - last) % (1 << 32) for t, _ in data if after(t, last))
        if not later:
            run.fail("no DATA on stream %d from %s after the reset" % (sid, resetter))
            return
        first = [ssn for t, ssn in data if (t - last) % (1 << 32) == later[0]][0]
        if first != 0:
            run.fail("the first DATA on stream %d after the reset (TSN %d) has SSN %d, not 0" %
                     (sid, (last + later[0]) % (1 << 32), first))
        if not before or max(before) == 0:
            run.fail("no DATA with an SSN above 0 on stream %d before the reset: the case "
                     "proves nothing" % sid)
        wire_closed_by(SHUTDOWN, "client")(run, net, pk)
        if run.client.wait_line(r"stream-reset: %s" % ("outgoing" if kind == "out" else
                                                        "incoming"), 0) is None:
            run.fail("the %s client printed no stream-reset event" % cp)
        run.notes.append("%d RE-CONFIG from %s, %d from %s; stream %d: SSN up to %d, then 0 "
                         "after TSN %d" % (sent_by(pk, run.addrs(cp), RE_CONFIG), cp,
                                           sent_by(pk, run.addrs(sp), RE_CONFIG), sp, sid,
                                           max(before or [0]), last))
    return wire


def wire_reconf_add(streams, new):
    """The client added streams after using `streams`: an Add Outgoing or
    Add Incoming Streams Request from it, "Success - Performed" from the
    side that grew its inbound streams, its stream-change event, and DATA
    on the `new` streams above `streams` from both sides (the echoes come
    back on them: the server's outbound streams grew too)."""

    def wire(run, net, pk):
        cp, sp = run.roles()
        reconfig_offered(run, pk)
        mine = reconf_params(run.cap, run.addrs(cp))
        if not any(t in (ADD_OUT_STREAMS, ADD_IN_STREAMS) for t, _, _, _ in mine):
            run.fail("no Add Streams Request from the client (%s)" % cp)
        results = [r for t, _, _, r in reconf_params(run.cap, run.addrs(sp)) + mine
                   if t == RECONF_RESPONSE]
        if PERFORMED not in results:
            run.fail("no \"Success - Performed\" answer to the Add Streams Request "
                     "(results %s)" % results)
        for prog in (cp, sp):
            n = sum(1 for _, s, _, _ in data_chunks(run.cap, run.addrs(prog))
                    if streams <= s < streams + new)
            if n == 0:
                run.fail("no DATA on a new stream from %s" % prog)
        if run.client.wait_line(r"stream-change: performed", 0) is None:
            run.fail("the %s client's stream-change event: %s" %
                     (cp, run.client.wait_line(r"stream-change", 0)))
        wire_closed_by(SHUTDOWN, "client")(run, net, pk)
        run.notes.append("RE-CONFIG parameters from the client %s, from the server %s; "
                         "results %s" % ([t for t, _, _, _ in mine],
                                         [t for t, _, _, _ in reconf_params(run.cap,
                                                                            run.addrs(sp))],
                                         results))
    return wire


def reconf_assoc_frames(cap, client_ips):
    """The frames of an association reset, in capture order: every RE-CONFIG
    parameter and DATA chunk, each as (frame, "client" or "server", what).
    what is ("req", request sequence number) for an SSN/TSN Reset Request,
    ("resp", response sequence number, result, sender's next TSN, receiver's
    next TSN) for a Re-configuration Response (the TSNs None when it has
    none), ("data", TSN, stream, SSN, U bit) for DATA, ("other", type) for
    other parameters. Within a packet control chunks come before DATA (RFC
    9260 §6.10), so a response's DATA in its own frame follow it. tshark
    lists a frame's fields by kind: the values are matched to the
    parameters that carry them, in order (a Re-configuration Response has
    the next TSNs when it is 20 bytes long, RFC 6525 §4.4)."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y",
             "sctp.chunk_type == %d || sctp.chunk_type == %d" % (RE_CONFIG, DATA),
             "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
             "-e", "frame.number", "-e", "ip.src", "-e", "ipv6.src", "-e", "sctp.chunk_type",
             "-e", "sctp.parameter_type", "-e", "sctp.parameter_length",
             "-e", "sctp.parameter_reconfig_request_sequence_number",
             "-e", "sctp.parameter_reconfig_response_sequence_number",
             "-e", "sctp.parameter_reconfig_response_result",
             "-e", "sctp.parameter_senders_next_tsn", "-e", "sctp.parameter_receivers_next_tsn",
             "-e", "sctp.data_tsn_raw", "-e", "sctp.data_sid", "-e", "sctp.data_ssn",
             "-e", "sctp.data_u_bit")
    ints = lambda f: [int(x, 0) for x in f.split(",") if x]  # noqa: E731
    res = []
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != 15 or not f[0].isdigit():
            continue
        who = "client" if (f[1] or f[2]) in client_ips else "server"
        frame = int(f[0])
        if RE_CONFIG in ints(f[3]):
            reqs, resps, results = iter(ints(f[6])), iter(ints(f[7])), iter(ints(f[8]))
            snd, rcv = iter(ints(f[9])), iter(ints(f[10]))
            for t, plen in zip(ints(f[4]), ints(f[5])):
                if t == SSN_TSN_RESET:
                    res.append((frame, who, ("req", next(reqs, None))))
                elif t == RECONF_RESPONSE:
                    tsns = (next(snd, None), next(rcv, None)) if plen >= 20 else (None, None)
                    res.append((frame, who, ("resp", next(resps, None), next(results, None)) +
                                tsns))
                else:
                    # Every other request has a request sequence number; an
                    # Outgoing SSN Reset Request a response one too.
                    next(reqs, None)
                    if t == OUT_SSN_RESET:
                        next(resps, None)
                    res.append((frame, who, ("other", t)))
        for d in zip(ints(f[11]), ints(f[12]), ints(f[13]), ints(f[14])):
            res.append((frame, who, ("data",) + d))
    return res


def wire_reconf_assoc(run, net, pk):
    """The client reset the association after RECONF_AT messages (RFC 6525
    §5.1.4): its SSN/TSN Reset Request, the server's "Success - Performed"
    for it with the next TSNs of both sides (§5.2.4: the server's own,
    "sender's next TSN", and the one the client must use, "receiver's next
    TSN"); after that response each side's DATA start at the TSN it named
    for that side, and every stream's first ordered message after it has
    SSN 0 on both sides (where one before it had a higher SSN). Both
    programs print the association reset event; dpsctp's gives the TSNs of
    the wire. Every echo came back once and in order (the client's check)."""
    cp, sp = run.roles()
    reconfig_offered(run, pk)
    ev = reconf_assoc_frames(run.cap, run.addrs(cp))
    reqs = [(fr, w[1]) for fr, who, w in ev if who == "client" and w[0] == "req"]
    if not reqs:
        run.fail("no SSN/TSN Reset Request (parameter %d) from the client (%s)" %
                 (SSN_TSN_RESET, cp))
        return
    seq = reqs[0][1]
    resps = [(fr, w) for fr, who, w in ev if who == "server" and w[0] == "resp" and w[1] == seq]
    done = [(fr, w) for fr, w in resps if w[2] == PERFORMED]
    if not done:
        run.fail("no Re-configuration Response \"Success - Performed\" from %s to the "
                 "SSN/TSN Reset Request %s (results %s)" % (sp, seq, [w[2] for _, w in resps]))
        return
    at, (_, _, _, srv_next, cli_next) = done[0]
    if srv_next is None:
        run.fail("%s's \"Performed\" (frame %d) carries no next TSNs" % (sp, at))
        return
    if cp == "usrsctp" and not after(cli_next, (srv_next - 1) % (1 << 32)):
        # usrsctp's defect (docs/INTEROP.md), named here so that a failure
        # says so: as the requester it takes its inbound cumulative TSN
        # (server next - 1) for the last TSN of its own acknowledged, and
        # drops as old every SACK not after it. With these TSNs that is
        # every SACK after the reset: its window never opens again.
        run.notes.append("usrsctp's requester defect applies: its new TSNs (from %d) are not "
                         "after the server's next TSN - 1 (%d), so it takes every SACK after "
                         "the reset for an old one" % (cli_next, (srv_next - 1) % (1 << 32)))
    want = {"client": cli_next, "server": srv_next}
    later, zeroed = {"client": 0, "server": 0}, {"client": 0, "server": 0}
    for side, prog in (("client", cp), ("server", sp)):
        # A response's own frame: control chunks first, so the server's DATA
        # there follow it; the client heard it only after that frame.
        data = [w[1:] for fr, who, w in ev if who == side and w[0] == "data"]
        before = [w[1:] for fr, who, w in ev if who == side and w[0] == "data" and
                  (fr < at or (fr == at and side == "client"))]
        after_ = data[len(before):]
        later[side] = len(after_)
        if not after_:
            run.fail("no DATA from the %s (%s) after the association reset" % (side, prog))
            continue
        if after_[0][0] != want[side]:
            run.fail("the %s's (%s) first DATA after the reset has TSN %d, the response said "
                     "%d" % (side, prog, after_[0][0], want[side]))
        early = [t for t, _, _, _ in after_ if after(want[side], t)]
        if early:
            run.fail("%d DATA from the %s (%s) after the reset below the TSN the response "
                     "said (%d): %s" % (len(early), side, prog, want[side], early[:5]))
        first, high = {}, {}
        for t, sid, ssn, u in after_:
            if not u:
                first.setdefault(sid, ssn)
        for t, sid, ssn, u in before:
            if not u:
                high[sid] = max(high.get(sid, 0), ssn)
        bad = {sid: ssn for sid, ssn in first.items() if ssn != 0}
        zeroed[side] = len(first) - len(bad)
        if bad:
            run.fail("the %s's (%s) first ordered DATA after the reset: SSN not 0 on streams "
                     "%s" % (side, prog, bad))
        if not first or not any(high.get(sid, 0) > 0 for sid in first):
            run.fail("no ordered stream of the %s (%s) had an SSN above 0 before the reset "
                     "and carried DATA after it: the case proves nothing" % (side, prog))
    for p, role in ((run.client, "client"), (run.server, "server")):
        line = p.wait_line(r"assoc-reset:", 0)
        if line is None or "performed" not in line:
            run.fail("the %s %s's association reset event: %s" %
                     (run.roles()[role == "server"], role, line))
            continue
        m = re.search(r"local tsn (\d+), remote tsn (\d+)", line)
        mine = run.roles()[role == "server"]
        if mine == "dpsctp" and m:
            local, remote = (cli_next, srv_next) if role == "client" else (srv_next, cli_next)
            if (int(m.group(1)), int(m.group(2))) != (local, remote):
                run.fail("dpsctp's association reset event says local tsn %s, remote tsn %s; "
                         "the wire %d, %d" % (m.group(1), m.group(2), local, remote))
    wire_closed_by(SHUTDOWN, "client")(run, net, pk)
    run.notes.append("SSN/TSN Reset Request frame %d, \"Performed\" frame %d: server next TSN "
                     "%d, client next TSN %d; DATA after: %d from the client, %d from the "
                     "server; ordered streams from SSN 0: %d, %d" %
                     (reqs[0][0], at, srv_next, cli_next, later["client"], later["server"],
                      zeroed["client"], zeroed["server"]))


def wire_idata_only(run, pk, senders):
    """Both sides listed I-DATA in their INIT / INIT ACK, the senders sent
    I-DATA and nobody DATA (RFC 8260 §2.2: a protocol violation then); both
    stacks say they negotiated it."""
    for prog in run.roles():
        n_i, n_d = sent_by(pk, run.addrs(prog), I_DATA), sent_by(pk, run.addrs(prog), DATA)
        if n_i == 0 and prog in senders:
            run.fail("no I-DATA from %s" % prog)
        if n_d:
            run.fail("%d DATA chunks from %s on an association with I-DATA" % (n_d, prog))
        if offers(pk, run.addrs(prog), I_DATA) == 0:
            run.fail("%s's INIT/INIT ACK does not list I-DATA in Supported Extensions" % prog)
    ext = run.read_counters().get("stats.extensions", 0)
    if ext & DPSCTP_EXT_I_DATA == 0:
        run.fail("dpsctp's association did not negotiate I-DATA (extensions 0x%x)" % ext)
    peer = run.client if run.roles()[0] == PEER else run.server
    if not peer.has(r": i-data: on$"):
        run.fail("%s did not negotiate I-DATA (%s)" % (PEER, peer.wait_line(r"i-data:", 0)))


def interleavings(cap, src_ips):
    """I-DATA chunks from src_ips sent while another message was under way
    (after its first fragment, before its last): a sender that switches
    streams per chunk, not per message (RFC 8260 §1)."""
    out = sh("tshark", "-r", cap, *TSHARK_OPTS, "-Y", "sctp.chunk_type == %d" % I_DATA,
             "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E",
             "aggregator=,", "-e", "ip.src", "-e", "ipv6.src", "-e", "sctp.data_sid",
             "-e", "sctp.data_u_bit", "-e", "sctp.data_mid", "-e", "sctp.data_b_bit",
             "-e", "sctp.data_e_bit")
    ints = lambda f: [int(x, 0) for x in f.split(",") if x]  # noqa: E731
    under_way, n = set(), 0
    for ln in out.splitlines():
        f = ln.split("|")
        if len(f) != 7 or (f[0] or f[1]) not in src_ips:
            continue
        for k, b, e in zip(zip(ints(f[2]), ints(f[3]), ints(f[4])), ints(f[5]), ints(f[6])):
            if b:
                under_way.add(k)
            if under_way - {k}:
                n += 1
            if e:
                under_way.discard(k)
    return n


def wire_idata(run, net, pk):
    """I-DATA: nothing but I-DATA, both offered it, and dpsctp interleaved
    (when messages have several fragments)."""
    wire_idata_only(run, pk, run.roles())
    wire_closed_by(SHUTDOWN, "client")(run, net, pk)
    mixed = {prog: interleavings(run.cap, run.addrs(prog)) for prog in ("dpsctp", PEER)}
    if mixed["dpsctp"] == 0 and not run.case.get("one_chunk"):
        run.fail("dpsctp sent no I-DATA chunk between the first and last fragment of "
                 "another message: it did not interleave")
    run.notes.append("%d packets, I-DATA %d/%d (client/server), interleaved chunks: dpsctp "
                     "%d, %s %d" % (len(pk), sent_by(pk, run.addrs(run.roles()[0]), I_DATA),
                                    sent_by(pk, run.addrs(run.roles()[1]), I_DATA),
                                    mixed["dpsctp"], PEER, mixed[PEER]))


def pr_case(policy, title, dp_extra=(), idata=False, lmax=9000, name=None):
    """The client sends with `policy` over dpsctp's lossy port; the server
    only receives and checks (--check). With idata, over I-DATA. Eight
    streams: the even ones carry only ordered messages, the odd ones only
    unordered. usrsctp (0.9.5 and its master of 2025) takes an I-FORWARD
    TSN entry for unordered messages (U bit set) as one for the stream's
    ordered ones too, and aborts the association when the ordered message
    with that MID comes ("Delivered MID=..., got TSN=...":
    docs/INTEROP.md); on streams of one kind the entry has no other side."""
    msgs = ["-n", str(PR_MSGS), "-l", str(lmax), "-S", "8"]
    return {"name": name or "pr-" + policy.split(":")[0], "title": title,
            "extra": True, "idata": idata,
            # --linger (both): as in loss-reorder, the last SHUTDOWN COMPLETE may be lost.
            "dp_opts": ["--impair", PR_LOSS + ",seed=21", "--impair-rx", PR_LOSS + ",seed=22",
                        "--linger", "3", *dp_extra],
            "peer_opts": ["--rto-min", "200", "--rto-initial", "500"] + PEER_LINGER +
            (IDATA_PEER if idata else []),
            "play": play_simple(lambda p: msgs + ["--pr", policy],
                                lambda p: msgs + ["--check"] +
                                (["--once"] if p == "dpsctp" else []), timeout=300),
            "wire": wire_pr}


def server_once(extra=()):
    return lambda prog: ["--echo"] + (["--once"] if prog == "dpsctp" else []) + list(extra)


CASES = [
    {"name": "data", "title": "handshake; 10,000 messages, 1 B to 64 KiB, 16 streams, "
     "ordered and unordered, echoed and checked; client closes",
     "play": play_simple(lambda p: ["-n", "10000", "-l", "65536", "-S", "16", "--echo"],
                         server_once()),
     "wire": wire_data_default},
    {"name": "shutdown-by-client", "title": "graceful shutdown started by the client",
     "play": play_simple(lambda p: ["-n", "100", "--echo"], server_once()),
     "wire": wire_closed_by(SHUTDOWN, "client")},
    {"name": "shutdown-by-server", "title": "graceful shutdown started by the server",
     "play": play_simple(lambda p: ["-n", "100", "--echo", "--hold", "3"],
                         server_once(["--close-after", "100"])),
     "wire": wire_closed_by(SHUTDOWN, "server")},
    {"name": "abort-by-client", "title": "ABORT sent by the client",
     "play": play_simple(lambda p: ["-n", "100", "--echo", "--abort"],
                         server_once(["--expect", "abort"])),
     "wire": wire_closed_by(ABORT, "client")},
    {"name": "abort-by-server", "title": "ABORT sent by the server",
     "play": play_simple(lambda p: ["-n", "100", "--echo", "--expect", "abort"],
                         server_once(["--abort-after", "50", "--expect", "abort"])),
     "wire": wire_closed_by(ABORT, "server")},
    {"name": "heartbeat", "title": "an idle association: heartbeats both ways",
     "peer_opts": ["--hb", "300", "--rto-min", "100", "--rto-initial", "300"],
     "play": play_simple(lambda p: ["-n", "10", "--echo", "--hold", "3"], server_once()),
     "wire": wire_heartbeats},
    {"name": "restart", "title": "the other peer killed (-9) and started again",
     "play": play_restart},
    {"name": "loss-reorder", "title": "1% loss and 1% reordering each way (dpsctp's "
     "--impair and --impair-rx): nothing lost or duplicated",
     # --linger: the impairment may drop the last SHUTDOWN COMPLETE; usrsctp
     # then retransmits its SHUTDOWN ACK, which must meet a live dpsctp
     # (§8.4 rule 5 answers it) rather than an exited one. The same the
     # other way (PEER_LINGER).
     "dp_opts": ["--impair", IMPAIR + ",seed=11", "--impair-rx", IMPAIR + ",seed=12",
                 "--linger", "3"],
     "peer_opts": ["--rto-min", "200", "--rto-initial", "500"] + PEER_LINGER,
     "play": play_simple(lambda p: ["-n", "2000", "-l", "65536", "--echo"], server_once(),
                         timeout=300),
     "wire": wire_impair},
    {"name": "multihome", "title": "two addresses a side; the primary path's veth taken "
     "down mid-transfer: failover, nothing lost", "paths": 2,
     "peer_opts": ["--rto-min", "200", "--rto-initial", "500"],
     "play": play_multihome, "wire": wire_multihome},
    {"name": "multihome-ports", "extra": True, "dpsctp_peer": True,
     "title": "dpsctp with two ports on two networks (one veth each, no bridge), both sides' "
     "primary on network A; A taken down between batches: failover to B, A back: both "
     "directions return to A, nothing lost or duplicated", "paths": 2, "ports": 2,
     # A heartbeat every 200 ms, and RTO.max 1 s: a path that failed is
     # heartbeated every RTO plus 200 ms, its RTO doubled by every failure
     # up to RTO.max (usrsctp's default 60 s: network A, back, would wait
     # for its next heartbeat far past the client's 2 s hold).
     "peer_opts": ["--rto-min", "200", "--rto-initial", "500", "--rto-max", "1000",
                   "--hb", "200"],
     # dpsctp's RTO.max 1 s too, not the DC profile's 200 ms: its shutdown
     # guard (T5, 5 x RTO.max) and handshake then outlast a CPU stall of a
     # second or two on a loaded machine (a stall of 2.4 s during the last
     # hold made T5 abort a finished run).
     # RTO.min 20 ms, not the DC profile's 500 us: that floor presumes a
     # peer that answers within it (a DC-profiled one on its own cores); a
     # usrsctp thread on this shared machine is descheduled for a
     # millisecond or more, each such stall fired T3-rtx, and PF (one
     # timeout) moved up to half the DATA to network B before the cut.
     "dp_opts": ["--rto-max", "1000000", "--rto-min", "20000", "--rto-initial", "20000"],
     "play": play_multihome_ports, "wire": wire_multihome_ports},
    # The extension cases: run when --only names them, or with --all.
    pr_case("rtx:0", "PR-SCTP, RTX 0: 1,500 messages up to 9,000 bytes, 8 streams, 5% loss "
            "each way; the receiver only checks: what it missed the sender abandoned, "
            "FORWARD TSN on the wire"),
    # An 8 MB send buffer holds most of the 6.7 MB a sending dpsctp queues at
    # once, for longer than 10 ms below 6.7 Gbit/s (far above what this link
    # reaches with 5 % loss): some lifetimes always end, however fast loss
    # recovery is on the machine (about 1,300 of 1,500 here).
    pr_case("ttl:10", "PR-SCTP, a 10 ms lifetime: the same under 5% loss (dpsctp with "
            "--sndbuf 8m)", dp_extra=("--sndbuf", "8m")),
    {"name": "no-ext", "extra": True, "title": "dpsctp with --extensions none: 2,000 "
     "messages up to 64 KiB echoed, no PR-SCTP, I-DATA or RE-CONFIG on the wire (the peer "
     "offers them)",
     "dp_opts": ["--extensions", "none"],
     "peer_opts": IDATA_PEER + ["--reconfig"],
     "play": play_simple(lambda p: ["-n", "2000", "-l", "65536", "-S", "16", "--echo"],
                         server_once()),
     "wire": wire_no_ext},
    # dpsctp's send buffer holds the echoes of four large messages.
    {"name": "idata", "extra": True, "idata": True,
     "title": "I-DATA: 150 messages echoed, every fifth 256 KiB to 1 MiB, the others 1 B to "
     "64 KiB, over 7 streams that each carry ordered and unordered ones; I-DATA only on the "
     "wire, interleaved",
     "dp_opts": ["--sndbuf", "4m"],
     "peer_opts": IDATA_PEER,
     "play": play_simple(lambda p: ["-n", "150", "-l", "65536", "-S", "7", "--big",
                                    str(IDATA_BIG), "--echo"],
                         server_once(["--big", str(IDATA_BIG)]), timeout=300),
     "wire": wire_idata},
    pr_case("rtx:0", "PR-SCTP over I-DATA, RTX 0: 1,500 messages up to 9,000 bytes, 8 "
            "streams, 5% loss each way: what the receiver missed the sender abandoned, "
            "I-FORWARD TSN on the wire", idata=True, name="idata-pr"),
    # The same without fragments: what Linux can do (docs/INTEROP.md).
    {"name": "idata-1chunk", "extra": True, "idata": True, "one_chunk": True,
     "title": "I-DATA, messages of one chunk: 2,000 messages of 1 to 1,400 bytes echoed over "
     "7 streams that each carry ordered and unordered ones; I-DATA only on the wire",
     "peer_opts": IDATA_PEER,
     "play": play_simple(lambda p: ["-n", "2000", "-l", str(IDATA_1CHUNK), "-S", "7",
                                    "--echo"], server_once()),
     "wire": wire_idata},
    pr_case("rtx:0", "PR-SCTP over I-DATA, messages of one chunk: idata-pr with 1,500 "
            "messages of 1 to 1,400 bytes", idata=True, lmax=IDATA_1CHUNK,
            name="idata-pr-1chunk"),
    # Stream reconfiguration (RFC 6525): the client asks, after the 300th
    # message with every echo back, and sends on once answered.
    {"name": "reconf-out", "extra": True,
     "title": "RE-CONFIG: the client resets its outgoing stream 2 after 300 of 600 messages "
     "echoed over 8 streams; the stream's SSNs start again at 0, every echo back once and "
     "in order",
     "dp_opts": RECONF_DP, "peer_opts": ["--reconfig"],
     "play": play_simple(lambda p: RECONF_MSGS + ["--reconf", "out:2@%d" % RECONF_AT],
                         server_once()),
     "wire": wire_reconf("out", 2)},
    {"name": "reconf-in", "extra": True,
     "title": "RE-CONFIG: the client resets its incoming stream 4; the server answers with "
     "its own outgoing reset, and its echoes on stream 4 start again at SSN 0",
     "dp_opts": RECONF_DP, "peer_opts": ["--reconfig"],
     "play": play_simple(lambda p: RECONF_MSGS + ["--reconf", "in:4@%d" % RECONF_AT],
                         server_once()),
     "wire": wire_reconf("in", 4)},
    # dpsctp offers as many outbound streams as it takes inbound
    # (--max-streams, 16 here) and adds up to that; usrsctp never grows its
    # inbound streams past its INIT's 64. So the peer's INIT asks for 8
    # outbound, and the client adds what the other side can take: usrsctp 4
    # outgoing (to dpsctp's 16 inbound), dpsctp 4 incoming (usrsctp adds 4
    # outgoing, dpsctp grows its inbound from 8 to 12).
    {"name": "reconf-add", "extra": True,
     "title": "RE-CONFIG: the other peer offers 8 outbound streams, dpsctp 16; after 300 "
     "messages over 8 streams the client adds 4 (usrsctp outgoing, dpsctp incoming), then "
     "messages and echoes go over 12",
     "dp_opts": RECONF_DP + ["--max-streams", "16"],
     "peer_opts": ["--reconfig", "--init-streams", "8"],
     "play": play_simple(lambda p: RECONF_MSGS + [
         "--reconf", ("add:0,4@%d" if p == "dpsctp" else "add:4,0@%d") % RECONF_AT],
         server_once()),
     "wire": wire_reconf_add(8, 4)},
    {"name": "reconf-assoc", "extra": True,
     "title": "RE-CONFIG: the client resets the association after 300 of 600 messages echoed "
     "over 8 streams; both sides' TSNs start where the response says, every stream's SSNs "
     "at 0, every echo back once and in order",
     "dp_opts": RECONF_DP, "peer_opts": ["--reconfig"],
     "play": play_simple(lambda p: RECONF_MSGS + ["--reconf", "assoc@%d" % RECONF_AT],
                         server_once()),
     "wire": wire_reconf_assoc},
]

DIRS = ["dpsctp-server", "dpsctp-client"]
MODES = ["raw", "udp"]  # the default; MODE_TITLES has every mode
MODE_TITLES = {"raw": "raw IP", "udp": "UDP", "raw6": "raw IPv6", "udp6": "UDP, IPv6"}


def write_doc(doc, results, when):
    """The matrix of this peer in docs/INTEROP.md, between its markers: a
    column per direction and mode that was run."""
    mark = "matrix" if PEER == "usrsctp" else "matrix-%s" % PEER
    begin, end = "<!-- %s:begin" % mark, "<!-- %s:end -->" % mark
    by = {(r["case"], r["dir"], r["mode"]): r for r in results}
    modes = [m for m in MODE_TITLES if any(r["mode"] == m for r in results)]
    cols = [(d, m) for d in DIRS for m in modes]
    lines = ["%s (written by interop.py --peer %s --doc) -->" % (begin, PEER),
             "", "Last run: %s, %d of %d runs passed." %
             (when, sum(r["ok"] for r in results), len(results)), "",
             "| case | %s |" % " | ".join("%s, %s" % (d.replace("-", " "), MODE_TITLES[m])
                                        for d, m in cols),
             "|---|%s" % ("---|" * len(cols))]
    for c in CASES:
        cells = []
        for d, m in cols:
            r = by.get((c["name"], d, m))
            cells.append("—" if r is None else
                         ("pass" if r["ok"] else "**FAIL**") + " (%.0f s)" % r["secs"])
        lines.append("| %s: %s | %s |" % (c["name"], c["title"], " | ".join(cells)))
    lines += ["", end]
    text = open(doc).read()
    b, e = text.find(begin), text.find(end)
    if b < 0 or e < 0:
        raise SystemExit("%s: no %s markers" % (doc, mark))
    e += len(end)
    open(doc, "w").write(text[:b] + "\n".join(lines) + text[e:])


def linux_image(build):
    """linux_vm.py's guest image with this build's linux-sctp-peer, checked by
    its selftest (the peer against the guest's own SCTP over loopback, so a
    broken peer is not mistaken for a dpsctp failure). (DIR, None) or
    (None, why)."""
    d = os.path.join(build, "linux-vm")
    vm = ["python3", os.path.join(HERE, "linux_vm.py")]
    for argv in (vm + ["image", "--dir", d, "--peer", os.path.join(build, PEERS["linux"]["prog"])],
                 vm + ["selftest", "--dir", d]):
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        last = (r.stdout.strip().splitlines() or ["no output"])[-1]
        log("interop: linux_vm.py %s: %s" % (argv[2], last))
        if r.returncode != 0:
            return None, "linux_vm.py %s failed (exit %d): %s" % (argv[2], r.returncode, last)
    return d, None


def main():
    global VERBOSE, PEER, CUT, VM_DIR
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--peer", default="usrsctp", choices=sorted(PEERS))
    ap.add_argument("--only", default="")
    ap.add_argument("--all", action="store_true", help="the extension cases too")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--dirs", default=",".join(DIRS))
    ap.add_argument("--cut", default="link", choices=("link", "own"),
                    help="multihome-ports: take down network A's far end (link) or "
                    "dpsctp's own port interface (own)")
    ap.add_argument("--keep", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--doc", default=None)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    VERBOSE = a.v
    PEER = a.peer
    CUT = a.cut
    build = os.path.abspath(a.build)
    if os.geteuid() != 0:
        return cannot_run("interop: needs root (namespaces, veth)")
    for prog in (PEERS[PEER]["prog"], "dataplane/tests/interop/dpsctp-peer",
                 "apps/dpsctp-decode/dpsctp-decode"):
        if not os.path.exists(os.path.join(build, prog)):
            return cannot_run("interop: %s not built (libusrsctp-dev, libsctp-dev or DPDK "
                              "missing)" % prog)
    for tool in ("tshark", "dumpcap", "ethtool", "ip"):
        if shutil.which(tool) is None:
            return cannot_run("interop: %s missing (./dev.sh setup installs it)" % tool)
    if PEER == "linux":
        for what, there in (("qemu-system-x86_64 (qemu-system-x86)",
                             shutil.which("qemu-system-x86_64")),
                            ("/bin/busybox (busybox-static)", os.path.exists("/bin/busybox"))):
            if not there:
                return cannot_run("interop: %s missing (./dev.sh setup installs it)" % what)
        # With QEMU and busybox there, a guest that cannot be built or fails
        # its selftest is a failure, not a skip.
        VM_DIR, why = linux_image(build)
        if VM_DIR is None:
            print("interop: %s" % why)
            return 1
    signal.signal(signal.SIGTERM, on_term)
    sweep_stale_namespaces()
    keep = os.path.abspath(a.keep or os.path.join(build, "interop-artifacts"))
    os.makedirs(keep, exist_ok=True)
    only = set(x for x in a.only.split(",") if x)
    bad_modes = set(a.modes.split(",")) - set(MODE_TITLES)
    if bad_modes:
        print("interop: no mode %s (modes: %s)" % (", ".join(sorted(bad_modes)),
                                                   ", ".join(MODE_TITLES)))
        return 2
    unknown = only - set(c["name"] for c in CASES)
    if unknown:
        print("interop: no case %s (cases: %s)" % (", ".join(sorted(unknown)),
                                                   ", ".join(c["name"] for c in CASES)))
        return 2
    if PEER == "dpsctp":
        # Against itself only the cases written for it: the others judge
        # the wire by program name, which is then both sides'.
        mine = set(c["name"] for c in CASES if c.get("dpsctp_peer"))
        if only - mine:
            print("interop: --peer dpsctp runs only %s" % ", ".join(sorted(mine)))
            return 2
        only = only or mine
    results = []
    t0 = time.time()
    for c in CASES:
        if (only and c["name"] not in only) or (not only and not a.all and c.get("extra")):
            continue
        for d in a.dirs.split(","):
            for m in a.modes.split(","):
                r = Run(c, m, d, build, keep)
                ok = r.go()
                if not ok and any("the capture dropped" in e for e in r.errs):
                    # The judge saw an incomplete capture (dumpcap starved or
                    # flushing at the end): no verdict on the peers. Once more.
                    first = r
                    r = Run(c, m, d, build, keep)
                    ok = r.go()
                    r.notes.append("run again after: %s" % "; ".join(first.errs))
                log("%-4s %-40s %5.1f s  %s" % ("ok" if ok else "FAIL", r.name, r.secs,
                                                "; ".join(r.errs + r.notes)))
                results.append({"case": c["name"], "dir": d, "mode": m, "ok": ok,
                                "secs": round(r.secs, 1), "errors": r.errs,
                                "notes": r.notes})
    passed = sum(r["ok"] for r in results)
    log("interop: %d of %d runs against %s passed in %.0f s" % (passed, len(results), PEER,
                                                                 time.time() - t0))
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"when": when, "results": results}, f, indent=1)
    if a.doc:
        write_doc(a.doc, results, when)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
