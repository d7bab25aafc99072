#!/usr/bin/python3
"""[interop] Replay every capture of the SCTP corpus into a running data plane.

    replay.py BUILD_DIR [--keep DIR] [-v] [--variants] [--corpus DIR] [--gap-ms MS]

Two network namespaces joined by a veth pair. In A, dpsctp-echo serves SCTP
port 5001 on the veth through net_af_packet (192.0.2.1, the veth end itself
has no address). In B the veth end has 192.0.2.2, tshark captures on it, and
a raw IPv4 socket (protocol 132) sends every SCTP packet of every capture in
the corpus (tests/corpus/pcap of the source tree, SOURCES.md there) to
192.0.2.1, twice:

  pass "ootb":   destination port rewritten to 5999, where nobody listens;
  pass "listen": rewritten to 5001, dpsctp-echo's listener.

--variants adds a third pass (to 5001) of packets derived from the corpus
for the rules no captured packet reaches (see make_variants()).

The CRC32c is recomputed after the rewrite only where the original was a
valid CRC32c; a zero checksum stays zero, an Adler-32 or wrong one stays
wrong, so those must be dropped as drop_bad_crc (RFC 9260 §6.8).

Every packet gets its expected answer from RFC 9260 (§8.4 rules 1-8, §5.1,
§8.5.1, §3.3.2, §6.10; see expect()). The verdict:

  - dpsctp-echo is alive after every packet and exits 0 on SIGINT at the end;
  - each packet reached the data plane (rx_sctp rose by exactly 1);
  - tshark (CRC-32C checking on) sees every injected packet, in order, and
    after each one exactly the replies expected: source 192.0.2.1, ports
    swapped, chunk types, verification tag, T bit; every packet dpsctp sent
    has a good checksum and is not malformed;
  - the raw socket in B received the same replies (cross-check);
  - every packet answered by silence raised a named drop counter (read over
    DPDK telemetry, /dpsctp/stats, before and after each packet), the one
    the rule names where there is one (drop_bad_crc, ep.ootb_abort, ...).

Exit 0 pass, 1 fail (also when it cannot run: not root, tshark or ip
missing), 77 skip (the same, with DPSCTP_ALLOW_SKIP=1). The
namespaces, the processes and the telemetry directory are removed on every
exit. --keep DIR copies the capture and dpsctp-echo's output there on
failure. Standard library only.
"""
import argparse
import atexit
import ctypes
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.prereq import cannot_run  # noqa: E402

SRC_DIR = Path(__file__).resolve().parents[3]
DEFAULT_CORPUS = SRC_DIR / "tests" / "corpus" / "pcap"
ADDR_A, ADDR_B = "192.0.2.1", "192.0.2.2"
LISTEN_PORT, CLOSED_PORT = 5001, 5999
PASSES = (("ootb", CLOSED_PORT), ("listen", LISTEN_PORT))
CLONE_NEWNET = 0x40000000

CHUNK_NAMES = {0: "DATA", 1: "INIT", 2: "INIT_ACK", 3: "SACK", 4: "HEARTBEAT",
               5: "HEARTBEAT_ACK", 6: "ABORT", 7: "SHUTDOWN", 8: "SHUTDOWN_ACK",
               9: "ERROR", 10: "COOKIE_ECHO", 11: "COOKIE_ACK", 12: "ECNE", 13: "CWR",
               14: "SHUTDOWN_COMPLETE", 15: "AUTH", 16: "NR_SACK", 64: "I_DATA",
               128: "ASCONF_ACK", 129: "PKTDROP", 130: "RE_CONFIG", 132: "PAD",
               192: "FORWARD_TSN", 193: "ASCONF", 194: "I_FORWARD_TSN"}
INIT, INIT_ACK, ABORT, SHUTDOWN_ACK, ERROR, COOKIE_ECHO, COOKIE_ACK, SHUTDOWN_COMPLETE = (
    1, 2, 6, 8, 9, 10, 11, 14)

VERBOSE = False


def log(*a):
    print(*a, flush=True)


def vlog(*a):
    if VERBOSE:
        print(*a, flush=True)


def chunk_names(types):
    return ",".join(CHUNK_NAMES.get(t, str(t)) for t in types) or "-"


# ---------------------------------------------------------------- CRC32c
def _crc_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


CRC_TABLE = _crc_table()


def crc32c(data):
    c = 0xFFFFFFFF
    t = CRC_TABLE
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def sctp_crc(pkt):
    """The checksum field as RFC 9260 appendix B stores it (CRC32c over the
    packet with the field zeroed, least significant byte first)."""
    c = crc32c(pkt[:8] + b"\0\0\0\0" + pkt[12:])
    return struct.unpack(">I", struct.pack("<I", c))[0]


def sctp_adler(pkt):
    return zlib.adler32(pkt[:8] + b"\0\0\0\0" + pkt[12:]) & 0xFFFFFFFF


def checksum_state(pkt):
    stored = struct.unpack_from(">I", pkt, 8)[0]
    if stored == sctp_crc(pkt):
        return "crc32c"
    if stored == 0:
        return "zero"
    if stored == sctp_adler(pkt):
        return "adler32"
    return "bad"


# ---------------------------------------------------------------- capture reader
class Frame:
    __slots__ = ("file", "index", "sctp", "ipv", "truncated")

    def __init__(self, file, index, sctp, ipv, truncated):
        self.file, self.index, self.sctp, self.ipv, self.truncated = file, index, sctp, ipv, truncated


def ip_payload(data, off, ethertype_hint=None):
    """(ip version, SCTP bytes, truncated) or (version or None, None, why)."""
    if off >= len(data):
        return None, None, "short"
    ver = data[off] >> 4
    if ver == 4:
        if len(data) - off < 20:
            return 4, None, "short"
        ihl = (data[off] & 0xF) * 4
        total = struct.unpack_from(">H", data, off + 2)[0]
        frag = struct.unpack_from(">H", data, off + 6)[0]
        proto = data[off + 9]
        if proto != 132:
            return 4, None, f"ip proto {proto}"
        if frag & 0x3FFF:
            return 4, None, "fragment"
        end = off + total
        return 4, data[off + ihl:min(end, len(data))], end > len(data)
    if ver == 6:
        if len(data) - off < 40:
            return 6, None, "short"
        plen = struct.unpack_from(">H", data, off + 4)[0]
        nh = data[off + 6]
        end = off + 40 + plen
        p = off + 40
        while nh in (0, 43, 60, 51, 44):
            if p + 8 > len(data):
                return 6, None, "short"
            if nh == 44:
                fo = struct.unpack_from(">H", data, p + 2)[0]
                if fo & 0xFFF9:
                    return 6, None, "fragment"
                nh, p = data[p], p + 8
            elif nh == 51:
                nh, p = data[p], p + (data[p + 1] + 2) * 4
            else:
                nh, p = data[p], p + (data[p + 1] + 1) * 8
        if nh != 132:
            return 6, None, f"ip proto {nh}"
        return 6, data[p:min(end, len(data))], end > len(data)
    return None, None, f"not IP ({ver})"


def link_payload(linktype, data):
    """Offset of the IP header in a frame of this link type, or (None, why)."""
    if linktype == 1:  # Ethernet, any number of VLAN / QinQ tags
        off, et = 12, None
        while off + 2 <= len(data):
            et = struct.unpack_from(">H", data, off)[0]
            if et in (0x8100, 0x88A8, 0x9100):
                off += 4
                continue
            off += 2
            break
        if et in (0x0800, 0x86DD):
            return off, None
        return None, f"ethertype {et:#06x}" if et is not None else "short"
    if linktype == 113:  # Linux SLL
        et = struct.unpack_from(">H", data, 14)[0] if len(data) >= 16 else None
        return (16, None) if et in (0x0800, 0x86DD) else (None, f"sll protocol {et}")
    if linktype == 276:  # Linux SLL2
        et = struct.unpack_from(">H", data, 0)[0] if len(data) >= 20 else None
        return (20, None) if et in (0x0800, 0x86DD) else (None, f"sll2 protocol {et}")
    if linktype in (101, 12, 14, 228, 229):  # raw IP (12 and 14 on some BSDs)
        return 0, None
    if linktype in (0, 108):  # BSD loopback: 4-byte family, host or network order
        if len(data) < 4:
            return None, "short"
        fam = struct.unpack_from("<I" if linktype == 0 else ">I", data, 0)[0]
        if linktype == 0 and fam > 0xFFFF:
            fam = struct.unpack_from(">I", data, 0)[0]
        return (4, None) if fam in (2, 24, 28, 30) else (None, f"loopback family {fam}")
    return None, f"link type {linktype}"


def read_capture(path):
    """Yield (linktype, frame bytes) of a pcap or pcapng file."""
    data = path.read_bytes()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = "<" if magic[0] in (0xD4, 0x4D) else ">"
        linktype = struct.unpack_from(e + "I", data, 20)[0] & 0x0FFFFFFF
        off = 24
        while off + 16 <= len(data):
            _, _, incl, _ = struct.unpack_from(e + "IIII", data, off)
            off += 16
            yield linktype, data[off:off + incl]
            off += incl
        return
    if magic == b"\x0a\x0d\x0d\x0a":
        off, e, ifaces = 0, "<", []
        while off + 12 <= len(data):
            btype = struct.unpack_from("<I", data, off)[0]
            if btype == 0x0A0D0D0A:
                e = "<" if data[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
                ifaces = []
            blen = struct.unpack_from(e + "I", data, off + 4)[0]
            if blen < 12 or off + blen > len(data):
                break
            body = data[off + 8:off + blen - 4]
            btype = struct.unpack_from(e + "I", data, off)[0]
            if btype == 1:  # Interface Description Block
                ifaces.append(struct.unpack_from(e + "H", body, 0)[0])
            elif btype == 6:  # Enhanced Packet Block
                ifc, _, _, incl, _ = struct.unpack_from(e + "IIIII", body, 0)
                yield ifaces[ifc] if ifc < len(ifaces) else 1, body[20:20 + incl]
            elif btype == 3:  # Simple Packet Block
                olen = struct.unpack_from(e + "I", body, 0)[0]
                yield ifaces[0] if ifaces else 1, body[4:4 + olen]
            elif btype == 2:  # obsolete Packet Block
                ifc, _, _, _, incl, _ = struct.unpack_from(e + "HHIIII", body, 0)
                yield ifaces[ifc] if ifc < len(ifaces) else 1, body[20:20 + incl]
            off += blen
        return
    raise ValueError(f"{path.name}: neither pcap nor pcapng")


def corpus_packets(path):
    """(list of Frame, {why: count} of frames skipped, link types seen)."""
    out, skipped, links = [], {}, set()
    for i, (lt, frame) in enumerate(read_capture(path), 1):
        links.add(lt)
        off, why = link_payload(lt, frame)
        if off is not None:
            ver, sctp, why = ip_payload(frame, off)
            if sctp is not None:
                if len(sctp) < 12:
                    why = "sctp shorter than its common header"
                elif len(sctp) > 1480:
                    why = "too long for one IPv4 packet at MTU 1500"
                else:
                    out.append(Frame(path.name, i, bytes(sctp), ver, why))
                    continue
        skipped[why] = skipped.get(why, 0) + 1
    return out, skipped, links


# ---------------------------------------------------------------- expectations
class Expect:
    """What RFC 9260 wants for one injected packet.

    reply: (chunk types, vtag, T bit or None) the RFC asks for, or None for
    silence. alt: other replies the RFC allows (a SHOULD not followed), None
    meaning silence. drops: the counters that may name a silent discard; None
    for any drop counter."""

    def __init__(self, rule, reply=None, drops=None, alt=()):
        self.rule, self.reply, self.drops, self.alt = rule, reply, drops, tuple(alt)

    def allowed(self):
        return (self.reply,) + self.alt


def walk_chunks(pkt):
    """dpsctp's framing rules (RFC 9260 §3.2, §6.10): [(type, flags, value)], error."""
    chunks, off = [], 12
    while off < len(pkt):
        left = len(pkt) - off
        if left < 4:
            return chunks, "chunk header truncated"
        t, f, ln = struct.unpack_from(">BBH", pkt, off)
        if ln < 4:
            return chunks, "chunk length below 4"
        if ln > left:
            return chunks, "chunk runs past the packet"
        padded = (ln + 3) & ~3
        if padded > left:
            return chunks, "chunk padding missing"
        alone = (INIT, INIT_ACK, SHUTDOWN_COMPLETE)
        if (t in alone and (chunks or padded != left)) or (chunks and chunks[0][0] in alone):
            return chunks, f"{CHUNK_NAMES[t if t in alone else chunks[0][0]]} bundled (§6.10)"
        chunks.append((t, f, pkt[off + 4:off + ln]))
        off += padded
    if not chunks:
        return chunks, "no chunks"
    return chunks, None


def walk_tlvs(b):
    """[(type, value)] of parameters or causes, or None when malformed."""
    out, off = [], 0
    while off < len(b):
        if len(b) - off < 4:
            return None
        t, ln = struct.unpack_from(">HH", b, off)
        if ln < 4 or ln > len(b) - off:
            return None
        out.append((t, b[off + 4:off + ln]))
        off += min((ln + 3) & ~3, len(b) - off)
    return out


EP_MALFORMED = "ep.ootb_malformed"


def expect(pkt, lport, crc_ok, crc_orig):
    if not crc_ok:
        # §6.8: a packet whose CRC32c fails is discarded silently.
        return Expect(f"§6.8 checksum {crc_orig}", None, {"drop_bad_crc"})
    vtag = struct.unpack_from(">I", pkt, 4)[0]
    chunks, err = walk_chunks(pkt)
    if err:
        # No rule answers a packet that cannot be parsed; silence is all
        # §8.4 could ask for before the chunks are known.
        return Expect(f"malformed: {err}", None, {EP_MALFORMED})
    types = [c[0] for c in chunks]
    first = chunks[0]
    if first[0] == INIT:
        # §8.5.1 A: the packet carrying INIT has tag 0; INIT is alone (§6.10).
        if vtag != 0:
            return Expect("§8.5.1(A) INIT, packet tag not 0", None, {"ep.init_nonzero_vtag"})
        v = first[2]
        if len(v) < 16:
            return Expect("INIT shorter than its fixed part", None, {EP_MALFORMED})
        itag, _, os_, mis, _ = struct.unpack_from(">IIHHI", v, 0)
        abort_t0 = ((ABORT,), itag, 0)  # §8.4 rule 3: Initiate Tag, T bit 0
        if itag == 0:  # §3.3.2: MUST silently discard
            return Expect("§3.3.2 Initiate Tag 0", None, {"ep.init_initiate_tag_zero"})
        if os_ == 0 or mis == 0:  # §3.3.2: an error, ABORT (rule 3's tag)
            return Expect("§3.3.2 OS or MIS 0", abort_t0)
        params = walk_tlvs(v[16:])
        if params is None:
            return Expect("INIT parameters malformed", None, {"ep.init_params_malformed"})
        if any(t == 11 for t, _ in params):  # §5.1.2: Host Name -> ABORT
            return Expect("§5.1.2 INIT with Host Name", abort_t0)
        if lport == CLOSED_PORT:
            return Expect("§8.4(3) INIT to a closed port: ABORT T=0", abort_t0)
        # §5.1 B: INIT ACK, tag = the Initiate Tag (§8.5.1 A)
        return Expect("§5.1 INIT to the listener: INIT ACK", ((INIT_ACK,), itag, None))
    if vtag == 0:
        # §8.5.1 A: a packet with tag 0 that is not an INIT MUST be discarded.
        # dpsctp applies it before rules 2-8; the rules that discard anyway
        # (2, 6, 7) may name it instead.
        return Expect("§8.5.1(A) tag 0 without INIT", None,
                      {"ep.ootb_zero_vtag", "ep.ootb_abort", "ep.ootb_shutdown_complete",
                       "ep.ootb_cookie_ack_or_stale_error"})
    abort_t1 = ((ABORT,), vtag, 1)  # rule 8: tag reflected, T bit 1
    if ABORT in types:  # rule 2: MUST discard
        return Expect("§8.4(2) ABORT", None, {"ep.ootb_abort"})
    if first[0] == COOKIE_ECHO:
        # Rule 4 -> §5.1.5: a cookie another stack made fails our MAC (or is
        # not even the size of ours): discarded.
        return Expect("§8.4(4) foreign COOKIE ECHO", None,
                      {"ep.cookie_bad_mac", "ep.cookie_malformed", "ep.cookie_unknown_key",
                       EP_MALFORMED})
    if SHUTDOWN_ACK in types:
        # Rule 5: SHOULD answer SHUTDOWN COMPLETE, tag reflected, T bit 1.
        # SHOULD: silence (with a drop counted) conforms too.
        return Expect("§8.4(5) SHUTDOWN ACK: SHUTDOWN COMPLETE T=1",
                      ((SHUTDOWN_COMPLETE,), vtag, 1), None, alt=(None,))
    if SHUTDOWN_COMPLETE in types:  # rule 6: MUST discard
        return Expect("§8.4(6) SHUTDOWN COMPLETE", None, {"ep.ootb_shutdown_complete"})
    stale = any(t == ERROR and any(c == 3 for c, _ in (walk_tlvs(v) or ())) for t, _, v in chunks)
    if COOKIE_ACK in types or stale:
        # Rule 7: SHOULD discard; not following the SHOULD leads to rule 8.
        return Expect("§8.4(7) COOKIE ACK / Stale Cookie ERROR", None,
                      {"ep.ootb_cookie_ack_or_stale_error"}, alt=(abort_t1,))
    # Rule 8: SHOULD answer ABORT, tag reflected, T bit 1. SHOULD: silence
    # with a drop counted (e.g. a chunk dpsctp's parser refuses) conforms too.
    return Expect("§8.4(8) other: ABORT T=1", abort_t1, None, alt=(None,))


def fmt_reply(r):
    if r is None:
        return "none"
    types, vtag, tbit = r
    s = f"{chunk_names(types)} vtag={vtag:#010x}"
    return s + (f" T={tbit}" if tbit is not None else "")


# ---------------------------------------------------------------- namespaces
_libc = ctypes.CDLL(None, use_errno=True)


class NetNS:
    """with NetNS(name): the calling thread runs in that network namespace;
    sockets made there stay in it."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        fd = os.open(f"/var/run/netns/{self.name}", os.O_RDONLY)
        try:
            if _libc.setns(fd, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), f"setns {self.name}")
        finally:
            os.close(fd)
        return self

    def __exit__(self, *exc):
        try:
            if _libc.setns(self.home, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back")
        finally:
            os.close(self.home)


def ethtool_tx_off(ns, ifname):
    """ethtool -K IF tx off, by the binary or the SIOCETHTOOL ioctl
    (ETHTOOL_STXCSUM) when ethtool is not installed."""
    if shutil.which("ethtool"):
        return run(["ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tx", "off"],
                   check=False).returncode == 0
    import fcntl
    with NetNS(ns):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        ev = ctypes.create_string_buffer(struct.pack("II", 0x17, 0))  # ETHTOOL_STXCSUM, off
        ifr = struct.pack("16sP", ifname.encode(), ctypes.addressof(ev))
        fcntl.ioctl(s.fileno(), 0x8946, ifr)  # SIOCETHTOOL
        return True
    except OSError as e:
        log(f"replay: ethtool tx off on {ifname}: {e}")
        return False
    finally:
        s.close()


def run(cmd, check=True, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stdout.strip()}")
    return r


# ---------------------------------------------------------------- telemetry
class Telemetry:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.settimeout(5)
        self.s.connect(path)
        self.info = json.loads(self.s.recv(1 << 16))

    def stats(self):
        self.s.send(b"/dpsctp/stats")
        r = json.loads(self.s.recv(1 << 17)).get("/dpsctp/stats")
        if not isinstance(r, dict):  # null until the instance has registered
            raise ValueError(f"/dpsctp/stats: {r!r}")
        flat = {}
        for k, v in r.items():
            if isinstance(v, dict):
                for k2, v2 in v.items():
                    if isinstance(v2, int):
                        flat[f"{k}.{k2}"] = v2
            elif isinstance(v, int):
                flat[k] = v
        return flat

    def close(self):
        self.s.close()


def drop_counter_names():
    """Every counter that names a discarded packet: the worker's drops and
    the l3/ep/assoc drop lists (the .def files of the source tree)."""
    names = {"rx_no_mbuf", "rx_handoff_full", "icmp_no_assoc", "tx_full", "tx_no_mbuf",
             "tx_l3_drop", "tx_too_big", "impair_dropped", "drop_bad_crc", "drop_malformed",
             "drop_tag_no_owner", "drop_no_conn_memory", "drop_table_full"}
    for prefix, rel in (("l3", "drivers/net/l3_drop.def"), ("ep", "sctp/endpoint_drop.def"),
                        ("assoc", "sctp/assoc_drop.def")):
        p = SRC_DIR / rel
        if p.exists():
            for m in re.finditer(r'^\w+_DROP\(\s*\w+\s*,\s*"(\w+)"', p.read_text(), re.M):
                names.add(f"{prefix}.{m.group(1)}")
    return names


def is_drop(name, drops):
    return name in drops or name.startswith("drop_")


# ---------------------------------------------------------------- the run
class Rig:
    def __init__(self, build, tmp):
        pid = os.getpid()
        self.ns_a, self.ns_b = f"dprpa{pid}", f"dprpb{pid}"
        self.if_a, self.if_b = f"rpa{pid}", f"rpb{pid}"
        self.prefix = f"dpreplay{pid}"
        self.build, self.tmp = build, tmp
        self.echo = self.tshark = None
        self.echo_log = tmp / "dpsctp-echo.log"
        self.cap = tmp / "replay.pcapng"
        self.sock = self.tel = None
        self.done = False

    def up(self):
        for ns in (self.ns_a, self.ns_b):
            run(["ip", "netns", "add", ns])
            # No IPv6 on the link: no router solicitations or MLD reports
            # reaching the data plane between our packets.
            for k in ("all", "default"):
                run(["ip", "netns", "exec", ns, "sysctl", "-qw",
                     f"net.ipv6.conf.{k}.disable_ipv6=1"], check=False)
        run(["ip", "link", "add", self.if_a, "netns", self.ns_a, "type", "veth",
             "peer", "name", self.if_b, "netns", self.ns_b])
        for ns, ifc in ((self.ns_a, self.if_a), (self.ns_b, self.if_b)):
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
            run(["ip", "-n", ns, "link", "set", ifc, "up"])
        run(["ip", "-n", self.ns_b, "addr", "add", f"{ADDR_B}/24", "dev", self.if_b])
        if not ethtool_tx_off(self.ns_b, self.if_b):
            log("replay: warning: tx checksum offload left on (raw SCTP is unaffected)")

        # The capture, running before anything is sent.
        err = open(self.tmp / "tshark.err", "w")
        self.tshark = subprocess.Popen(
            ["ip", "netns", "exec", self.ns_b, "tshark", "-q", "-n", "-i", self.if_b,
             "-w", str(self.cap)], stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.time() + 15
        while "Capturing on" not in (self.tmp / "tshark.err").read_text():
            if self.tshark.poll() is not None or time.time() > deadline:
                raise RuntimeError("tshark did not start: " +
                                   (self.tmp / "tshark.err").read_text().strip())
            time.sleep(0.1)
        time.sleep(0.5)

        echo_bin = self.build / "apps" / "dpsctp-echo" / "dpsctp-echo"
        out = open(self.echo_log, "w")
        self.echo = subprocess.Popen(
            ["ip", "netns", "exec", self.ns_a, str(echo_bin), "--no-huge", "--no-pci",
             "--no-shconf", "--file-prefix", self.prefix, "-l", "0", "-m", "256",
             "--log-level", "lib.eal:error", "--", "--port",
             f"net_af_packet0,iface={self.if_a}", "--ip", f"{ADDR_A}/24", "-s"],
            stdout=out, stderr=subprocess.STDOUT)
        tel = f"/var/run/dpdk/{self.prefix}/dpdk_telemetry.v2"
        deadline = time.time() + 20
        while True:
            if self.echo.poll() is not None:
                raise RuntimeError(f"dpsctp-echo exited {self.echo.returncode}: " +
                                   self.echo_log.read_text().strip())
            if os.path.exists(tel):
                try:
                    self.tel = Telemetry(tel)
                    self.tel.stats()
                    break
                except (OSError, ValueError, KeyError):
                    if self.tel:
                        self.tel.close()
                    self.tel = None
            if time.time() > deadline:
                raise RuntimeError("no dpsctp telemetry at " + tel)
            time.sleep(0.1)

        # The sender: a raw socket in B. Open, it also keeps B's kernel (no
        # SCTP module) from answering dpsctp's replies with ICMP protocol
        # unreachable, and gives us the replies to cross-check the capture.
        with NetNS(self.ns_b):
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, 132)
        self.sock.setblocking(False)
        # Both neighbour caches warm before the first timed packet.
        r = run(["ip", "netns", "exec", self.ns_b, "ping", "-c", "2", "-i", "0.2", "-W", "2",
                 ADDR_A], check=False)
        if r.returncode != 0:
            raise RuntimeError("192.0.2.1 does not answer ping from B:\n" + r.stdout)

    def echo_alive(self):
        return self.echo is not None and self.echo.poll() is None

    def stop_echo(self):
        """SIGINT: dpsctp-echo stops cleanly. Its exit status."""
        if self.echo is None:
            return None
        if self.echo.poll() is None:
            self.echo.send_signal(signal.SIGINT)
            try:
                self.echo.wait(15)
            except subprocess.TimeoutExpired:
                self.echo.kill()
                self.echo.wait()
                return "hung on SIGINT (killed)"
        rc = self.echo.returncode
        self.echo = None
        return rc

    def stop_capture(self):
        if self.tshark is not None and self.tshark.poll() is None:
            self.tshark.send_signal(signal.SIGINT)
            try:
                self.tshark.wait(15)
            except subprocess.TimeoutExpired:
                self.tshark.kill()
                self.tshark.wait()
        self.tshark = None

    def down(self):
        if self.done:
            return
        self.done = True
        for f in (self.tel, self.sock):
            try:
                if f:
                    f.close()
            except OSError:
                pass
        self.stop_capture()
        if self.echo is not None:
            self.stop_echo()
        for ns in (self.ns_a, self.ns_b):
            subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        shutil.rmtree(f"/var/run/dpdk/{self.prefix}", ignore_errors=True)


def read_reply(buf):
    """A packet from the raw socket (IPv4 header included): dict or None."""
    if len(buf) < 20:
        return None
    ihl = (buf[0] & 0xF) * 4
    p = buf[ihl:]
    if len(p) < 12:
        return None
    sport, dport, vtag = struct.unpack_from(">HHI", p, 0)
    chunks, _ = walk_chunks(p)
    types = tuple(c[0] for c in chunks)
    tbit = chunks[0][1] & 1 if chunks and chunks[0][0] in (ABORT, SHUTDOWN_COMPLETE) else None
    return {"src": socket.inet_ntoa(buf[12:16]), "sport": sport, "dport": dport,
            "key": (types, vtag, tbit), "crc_ok": checksum_state(p) == "crc32c"}


class Shot:
    """One injected packet and what came of it."""

    def __init__(self, pas, frame, pkt, crc_orig, crc_ok, exp):
        self.pas, self.frame, self.pkt = pas, frame, pkt
        self.crc_orig, self.crc_ok, self.exp = crc_orig, crc_ok, exp
        self.sock_replies = []
        self.cap_replies = []
        self.rose = {}
        self.problems = []
        self.outcome = None
        self.rx_sctp = None
        self.sent = False

    @property
    def name(self):
        return f"[{self.pas}] {self.frame.file}#{self.frame.index}"

    def describe(self):
        sport, dport, vtag = struct.unpack_from(">HHI", self.pkt, 0)
        chunks, err = walk_chunks(self.pkt)
        return (f"{chunk_names([c[0] for c in chunks])}{' (' + err + ')' if err else ''} "
                f"{sport}->{dport} vtag={vtag:#010x} crc={self.crc_orig}"
                f"{'' if self.crc_ok else ' (wrong on the wire)'}")


def prepare(frame, lport):
    pkt = bytearray(frame.sctp)
    orig = checksum_state(frame.sctp)
    pkt[2:4] = struct.pack(">H", lport)
    if orig == "crc32c":
        pkt[8:12] = struct.pack(">I", sctp_crc(pkt))
    pkt = bytes(pkt)
    # A zero, Adler-32 or wrong checksum was kept: it is wrong for the
    # rewritten packet too, unless by chance it is right (then it counts so).
    crc_ok = checksum_state(pkt) == "crc32c"
    return pkt, orig, crc_ok


def make_variants(corpus_frames):
    """--variants: packets derived from the corpus for the rules it does not
    reach (all its tag-0 non-INIT packets have a zero checksum): every
    zero-checksum packet with its CRC32c filled in; one INIT with a packet tag
    other than 0 (§8.5.1 A); per chunk-type list, one packet with tag 0 that
    is no INIT (§8.5.1 A). Their CRC32c is valid."""
    out, seen = [], set()

    def add(kind, fname, fr, q):
        q = bytearray(q)
        q[8:12] = struct.pack(">I", sctp_crc(q))
        out.append(Frame(f"{kind} <- {fname}", fr.index, bytes(q), fr.ipv, fr.truncated))

    for fname, (frames, _, _) in corpus_frames.items():
        for fr in frames:
            p, st = fr.sctp, checksum_state(fr.sctp)
            if st == "zero":
                add("crc filled", fname, fr, p)
            if st not in ("crc32c", "zero"):
                continue
            chunks, err = walk_chunks(p)
            if err:
                continue
            types = tuple(c[0] for c in chunks)
            vtag = struct.unpack_from(">I", p, 4)[0]
            if types == (INIT,) and "init" not in seen:
                seen.add("init")
                add("INIT, tag set", fname, fr, p[:4] + struct.pack(">I", 0x5EED0001) + p[8:])
            elif types[0] != INIT and vtag != 0 and types not in seen:
                seen.add(types)
                add("tag 0", fname, fr, p[:4] + b"\0\0\0\0" + p[8:])
    return out


def exit_text(rc):
    if isinstance(rc, int) and rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit {rc}"


def stats_or_death(rig):
    """The counters, or None once dpsctp-echo is gone (its telemetry with it)."""
    try:
        return rig.tel.stats()
    except (OSError, ValueError):
        for _ in range(50):
            if not rig.echo_alive():
                return None
            time.sleep(0.1)
        raise


# How long a packet may take to reach dpsctp-echo's counters on a loaded
# machine before it counts as never received: the wait ends as soon as it
# is seen, so this bounds only a packet that is truly lost.
PATIENCE = 10.0


def inject(rig, shot, gap, drops):
    """Send one packet, collect its replies and the counters that rose.
    Replies are collected for `gap` after dpsctp-echo counted the packet
    (rx_sctp), not after it was sent: a loaded machine may run the echo's
    poll loop late, and a wall-clock gap alone would then judge a packet
    not yet read. False when dpsctp-echo is dead (shot.sent says whether
    this packet left)."""
    before = stats_or_death(rig)
    if before is None or not rig.echo_alive():
        return False
    rig.sock.sendto(shot.pkt, (ADDR_A, 0))
    shot.sent = True
    give_up = time.monotonic() + PATIENCE
    deadline = time.monotonic() + gap
    seen = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if seen:
                break
            now_stats = stats_or_death(rig)
            if now_stats is None:
                break
            if now_stats.get("rx_sctp", 0) != before.get("rx_sctp", 0):
                seen = True  # counted: its replies have `gap` from now
                deadline = time.monotonic() + gap
            elif time.monotonic() >= give_up:
                break
            else:
                deadline = time.monotonic() + min(gap, 0.05)
            continue
        r, _, _ = select.select([rig.sock], [], [], left)
        if r:
            while True:
                try:
                    buf = rig.sock.recv(65535)
                except BlockingIOError:
                    break
                rep = read_reply(buf)
                if rep and rep["src"] == ADDR_A:
                    shot.sock_replies.append(rep)
    after = stats_or_death(rig)
    if after is None or not rig.echo_alive():
        shot.problems.append("dpsctp-echo died on this packet (or just before)")
        return False
    shot.rose = {k: v - before.get(k, 0) for k, v in after.items()
                 if v != before.get(k, 0) and is_drop(k, drops)}
    shot.rx_sctp = after.get("rx_sctp", 0) - before.get("rx_sctp", 0)
    return True


TSHARK_FIELDS = ["frame.number", "ip.src", "ip.dst", "sctp.srcport", "sctp.dstport",
                 "sctp.verification_tag", "sctp.chunk_type", "sctp.abort_t_bit",
                 "sctp.shutdown_complete_t_bit", "sctp.checksum.status", "_ws.malformed",
                 "sctp.initack_initiate_tag", "sctp.initack_nr_out_streams",
                 "sctp.initack_nr_in_streams", "sctp.parameter_type", "_ws.expert.severity",
                 "_ws.expert.message"]


def tshark_packets(cap):
    cmd = ["tshark", "-r", str(cap), "-n", "-o", "sctp.checksum:CRC-32C", "-Y",
           "ip.proto == 132 && !icmp", "-T", "fields", "-E", "separator=/t",
           "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in TSHARK_FIELDS:
        cmd += ["-e", f]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("tshark -r: " + r.stderr.strip())
    out = []
    for line in r.stdout.splitlines():
        f = dict(zip(TSHARK_FIELDS, line.split("\t")))

        def first(k):
            return f.get(k, "").split(",")[0]
        types = tuple(int(x) for x in f.get("sctp.chunk_type", "").split(",") if x)
        tb = first("sctp.abort_t_bit") or first("sctp.shutdown_complete_t_bit")
        tbit = None
        if types and types[0] in (ABORT, SHUTDOWN_COMPLETE) and tb:
            tbit = 1 if tb in ("1", "True") else 0
        vt = first("sctp.verification_tag")
        out.append({"frame": int(first("frame.number")), "src": first("ip.src"),
                    "dst": first("ip.dst"),
                    "sport": int(first("sctp.srcport") or -1),
                    "dport": int(first("sctp.dstport") or -1),
                    "key": (types, int(vt, 0) if vt else -1, tbit),
                    "ck": first("sctp.checksum.status"),
                    "malformed": bool(f.get("_ws.malformed", "")),
                    "initack": tuple(int(first(k), 0) if first(k) else -1 for k in
                                     ("sctp.initack_initiate_tag", "sctp.initack_nr_out_streams",
                                      "sctp.initack_nr_in_streams")),
                    "params": {int(x, 0) for x in f.get("sctp.parameter_type", "").split(",")
                               if x},
                    # expert infos of severity warning (0x600000) or error (0x800000)
                    "experts": [m for sev, m in zip(f.get("_ws.expert.severity", "").split(","),
                                                    f.get("_ws.expert.message", "").split(","))
                                if sev and int(sev, 0) >= 0x600000]})
    return out


def judge(shots, cap, drops):
    """Attribute the captured replies to their triggers and judge every shot.
    Returns the problems not tied to one shot."""
    general = []
    pk = tshark_packets(cap)
    injected = [p for p in pk if p["src"] == ADDR_B]
    if len(injected) != len(shots):
        general.append(f"capture holds {len(injected)} injected packets, {len(shots)} were sent")
    k = -1
    for p in pk:
        if p["src"] == ADDR_B:
            k += 1
            if k < len(shots):
                s = shots[k]
                sport, dport, vtag = struct.unpack_from(">HHI", s.pkt, 0)
                if (p["sport"], p["dport"], p["key"][1]) != (sport, dport, vtag):
                    general.append(f"capture frame {p['frame']} is not {s.name} "
                                   f"(ports/tag differ): attribution lost")
                    return general
        elif p["src"] == ADDR_A:
            if k < 0 or k >= len(shots):
                general.append(f"capture frame {p['frame']}: SCTP from {ADDR_A} with no trigger")
            else:
                shots[k].cap_replies.append(p)
        else:
            general.append(f"capture frame {p['frame']}: SCTP from {p['src']}")
    for s in shots:
        sport, dport, _ = struct.unpack_from(">HHI", s.pkt, 0)
        for r in s.cap_replies:
            if r["ck"] != "1":
                s.problems.append(f"reply frame {r['frame']}: checksum status {r['ck']} "
                                  "(1 = good) with CRC-32C checking")
            if r["malformed"]:
                s.problems.append(f"reply frame {r['frame']}: tshark says malformed")
            if r["experts"]:
                s.problems.append(f"reply frame {r['frame']}: tshark warns: {r['experts']}")
            if r["key"][0] == (INIT_ACK,):
                # §3.3.3: Initiate Tag not 0, OS and MIS not 0, a State Cookie
                # (parameter 7); §5.1.1: OS no more than the INIT's MIS.
                itag, os_, mis = r["initack"]
                init_mis = struct.unpack_from(">H", s.pkt, 12 + 4 + 10)[0]
                if itag == 0 or not 0 < os_ <= init_mis or mis <= 0 or 7 not in r["params"]:
                    s.problems.append(f"reply frame {r['frame']}: INIT ACK tag {itag:#x}, "
                                      f"OS {os_} (INIT's MIS {init_mis}), MIS {mis}, "
                                      f"parameters {sorted(r['params'])}")
            if (r["sport"], r["dport"], r["dst"]) != (dport, sport, ADDR_B):
                s.problems.append(f"reply frame {r['frame']}: ports {r['sport']}->{r['dport']} "
                                  f"to {r['dst']}, not {dport}->{sport} to {ADDR_B}")
        keys = [r["key"] for r in s.cap_replies]
        if [r["key"] for r in s.sock_replies] != keys:
            s.problems.append("capture and raw socket disagree: capture "
                              f"{[fmt_reply(x) for x in keys]}, socket "
                              f"{[fmt_reply(r['key']) for r in s.sock_replies]}")
        if len(keys) > 1:
            s.problems.append(f"{len(keys)} replies: {[fmt_reply(x) for x in keys]}")
            s.outcome = keys[0]
        else:
            s.outcome = keys[0] if keys else None
            if s.outcome not in s.exp.allowed():
                s.problems.append(f"expected {fmt_reply(s.exp.reply)} ({s.exp.rule}), "
                                  f"got {fmt_reply(s.outcome)}")
        if s.rx_sctp is not None and s.rx_sctp != 1:
            s.problems.append(f"rx_sctp rose by {s.rx_sctp}, not 1")
        if s.outcome is None:
            want = s.exp.drops if s.exp.reply is None and s.exp.drops else None
            named = set(s.rose) & want if want else set(s.rose)
            if not named:
                s.problems.append("silently discarded, but " +
                                  (f"none of {sorted(want)} rose" if want else
                                   "no drop counter rose") +
                                  (f" (rose: {s.rose})" if s.rose else ""))
    return general


def main():
    global VERBOSE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--keep", metavar="DIR", help="copy the capture here on failure")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per packet")
    ap.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    ap.add_argument("--variants", action="store_true",
                    help="a third pass of packets derived from the corpus (see make_variants)")
    ap.add_argument("--gap-ms", type=float, default=25.0,
                    help="time given to each packet's reply (default 25)")
    a = ap.parse_args()
    VERBOSE = a.verbose
    if os.geteuid() != 0:
        return cannot_run("replay: needs root (namespaces, veth, raw sockets)", log=log)
    for tool in ("tshark", "ip"):
        if not shutil.which(tool):
            return cannot_run(f"replay: {tool} is not installed", log=log)
    build = Path(a.build).resolve()
    echo_bin = build / "apps" / "dpsctp-echo" / "dpsctp-echo"
    if not os.access(echo_bin, os.X_OK):
        log(f"replay: FAIL: no {echo_bin}")
        return 1
    corpus = Path(a.corpus)
    files = sorted(p for p in corpus.iterdir()
                   if p.is_file() and re.search(r"\.(pcap|cap|pcapng)$", p.name))
    if not files:
        log(f"replay: FAIL: no captures in {corpus}")
        return 1

    t0 = time.monotonic()
    # The corpus, read before anything starts.
    decode = build / "apps" / "dpsctp-decode" / "dpsctp-decode"
    corpus_frames, notes = {}, []
    for f in files:
        frames, skipped, links = corpus_packets(f)
        corpus_frames[f.name] = (frames, skipped, links)
        if os.access(decode, os.X_OK):  # cross-check the reader
            r = subprocess.run([str(decode), "--json", str(f)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            n = sum(1 for line in r.stdout.splitlines()
                    if json.loads(line).get("sport") is not None)
            if n != len(frames) + sum(v for k, v in skipped.items() if "sctp" in str(k)
                                      or "too long" in str(k)):
                notes.append(f"{f.name}: our reader found {len(frames)} SCTP packets, "
                             f"dpsctp-decode {n}")

    drops = drop_counter_names()
    tmp = Path(tempfile.mkdtemp(prefix="dpsctp-replay-"))
    atexit.register(shutil.rmtree, tmp, True)  # runs after rig.down (LIFO)
    rig = Rig(build, tmp)
    atexit.register(rig.down)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, _f: sys.exit(128 + s))
    shots, general, echo_rc, interrupted, judged = [], [], None, False, False
    every = [fr for frames, _, _ in corpus_frames.values() for fr in frames]
    passes = [(pas, lport, every) for pas, lport in PASSES]
    if a.variants:
        passes.append(("variant", LISTEN_PORT, make_variants(corpus_frames)))
    try:
        rig.up()
        gap = a.gap_ms / 1000.0
        for pas, lport, frames in passes:
            before = rig.tel.stats()
            n_pass = 0
            for fr in frames:
                pkt, orig, ok = prepare(fr, lport)
                s = Shot(pas, fr, pkt, orig, ok, expect(pkt, lport, ok, orig))
                shots.append(s)
                n_pass += 1
                if not inject(rig, s, gap, drops):
                    if not s.sent:
                        shots.pop()
                    last = shots[-1] if shots else None
                    general.append("dpsctp-echo died" + (
                        f" after {last.name}: {last.describe()}" if last else ""))
                    raise StopIteration
                vlog(f"{s.name}: {s.describe()} -> "
                     f"{', '.join(fmt_reply(r['key']) for r in s.sock_replies) or 'none'}"
                     f"{' ' + str(s.rose) if s.rose else ''}")
            after = rig.tel.stats()
            silent = sum(1 for s in shots if s.pas == pas and not s.sock_replies)
            rose = {k: after[k] - before.get(k, 0) for k in after
                    if is_drop(k, drops) and after[k] != before.get(k, 0)}
            log(f"pass {pas}: {n_pass} packets, {n_pass - silent} answered, {silent} silent; "
                f"drop counters rose by {sum(rose.values())}: "
                + ", ".join(f"{k} {v}" for k, v in sorted(rose.items())))
            if sum(rose.values()) < silent:
                general.append(f"pass {pas}: {silent} packets dropped silently, drop counters "
                               f"rose by {sum(rose.values())} only")
        time.sleep(0.5)
    except StopIteration:
        pass
    except KeyboardInterrupt:
        interrupted = True
        general.append("interrupted")
    except Exception as e:  # set-up failure: reported, torn down, failed
        general.append(f"{type(e).__name__}: {e}")
        if VERBOSE:
            import traceback
            traceback.print_exc()
    finally:
        if rig.echo is not None:
            if not rig.echo_alive():
                echo_rc = rig.echo.returncode
                general.append(f"dpsctp-echo ended before the end: {exit_text(echo_rc)}")
            else:
                echo_rc = rig.stop_echo()
                if echo_rc != 0:
                    general.append(f"dpsctp-echo on SIGINT: {exit_text(echo_rc)} "
                                   "(exit 0 expected)")
        rig.stop_capture()
        if shots and rig.cap.exists() and not interrupted:
            try:
                general += judge(shots, rig.cap, drops)
                judged = True
            except Exception as e:
                general.append(f"judging the capture: {type(e).__name__}: {e}")
        rig.down()

    # The table: per file and pass.
    log("")
    log(f"{'capture':42} {'link':>6} {'sctp':>5} {'skip':>4} {'pass':>6} "
        f"{'replies exp/seen':>16}  drops by name")
    for fname, (frames, skipped, links) in corpus_frames.items():
        for pas, _ in PASSES:
            ss = [s for s in shots if s.pas == pas and s.frame.file == fname]
            exp = sum(1 for s in ss if s.exp.reply is not None)
            seen = sum(len(s.cap_replies) for s in ss)
            agg = {}
            for s in ss:
                for k, v in s.rose.items():
                    agg[k] = agg.get(k, 0) + v
            log(f"{fname[:42]:42} {','.join(map(str, sorted(links))):>6} {len(frames):5} "
                f"{sum(skipped.values()):4} {pas:>6} {f'{exp}/{seen}':>16}  "
                + (", ".join(f"{k} {v}" for k, v in sorted(agg.items())) or "-"))
    kinds = {}
    for s in shots:
        if s.pas == "variant":
            kinds.setdefault(s.frame.file, []).append(s)
    for kind, ss in kinds.items():
        agg = {}
        for s in ss:
            for k, v in s.rose.items():
                agg[k] = agg.get(k, 0) + v
        exp = sum(1 for s in ss if s.exp.reply is not None)
        seen = sum(len(s.cap_replies) for s in ss)
        log(f"{kind[:42]:42} {'':>6} {len(ss):5} {'':4} {'varnt':>6} {f'{exp}/{seen}':>16}  "
            + (", ".join(f"{k} {v}" for k, v in sorted(agg.items())) or "-"))
    # The SHOULDs dpsctp did not follow, and the answers by rule.
    by_rule = {}
    for s in shots:
        key = (s.exp.rule, fmt_reply(s.outcome) if s.outcome is None else
               chunk_names(s.outcome[0]) + (f" T={s.outcome[2]}" if s.outcome[2] is not None
                                            else ""))
        by_rule[key] = by_rule.get(key, 0) + 1
    log("")
    log("answers by rule (RFC 9260):")
    for (rule, out), n in sorted(by_rule.items()):
        log(f"  {n:5}  {rule:48} -> {out}")
    for s in shots if judged else ():
        if not s.problems and s.outcome is None and None in s.exp.alt:
            notes.append(f"{s.name}: SHOULD answer {fmt_reply(s.exp.reply)} ({s.exp.rule}); "
                         f"discarded, counted {s.rose}")
    bad = [s for s in shots if s.problems]
    for n in notes:
        log("note: " + n)
    for g in general:
        log("FAIL: " + g)
    for s in bad[:50]:
        log(f"FAIL: {s.name}: {s.describe()}")
        for p in s.problems:
            log(f"        {p}")
    if len(bad) > 50:
        log(f"FAIL: ... and {len(bad) - 50} more packets")
    ok = not general and not bad and len(shots) == sum(len(p[2]) for p in passes)
    if not ok and a.keep:
        os.makedirs(a.keep, exist_ok=True)
        for f in (rig.cap, rig.echo_log):
            if f.exists():
                shutil.copy(f, a.keep)
        log(f"replay: capture and dpsctp-echo output kept in {a.keep}")
    shutil.rmtree(tmp, ignore_errors=True)
    total = sum(len(v[0]) for v in corpus_frames.values())
    log(f"replay: {'PASS' if ok else 'FAIL'}: {len(files)} captures, {total} SCTP packets x "
        f"{len(PASSES)} passes{' + ' + str(len(passes[-1][2])) + ' variants' if a.variants else ''}"
        f" = {len(shots)} injected, "
        f"{sum(len(s.cap_replies) for s in shots)} replies, {len(bad)} packets wrong, "
        f"dpsctp-echo {exit_text(echo_rc)}, {time.monotonic() - t0:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
