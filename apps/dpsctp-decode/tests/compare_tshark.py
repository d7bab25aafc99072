#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dpsctp-decode against tshark, packet by packet, on a directory of captures.

For every capture in --corpus this runs

    tshark -r FILE -o "sctp.checksum:CRC 32c" -o sctp.relative_tsns:FALSE -T json
    tshark -r FILE -o "sctp.checksum:Adler 32" -T fields -e frame.number -e sctp.checksum.status
    dpsctp-decode --json FILE

and requires, on every frame:

  - both tools find SCTP in the same frames;
  - the same ports, verification tag and checksum field;
  - the same chunk list: type, flags and length of every chunk, in order;
  - per type, the same key fields: DATA/I-DATA TSN, SID, SSN or MID/FSN,
    PPID; SACK cumulative TSN ack, a_rwnd, gap blocks and duplicate TSNs
    (counts and values); INIT/INIT ACK tags, a_rwnd, stream counts, initial
    TSN and the parameter list (types, lengths, addresses); SHUTDOWN
    cumulative TSN ack; HEARTBEAT info; ABORT/ERROR cause codes and lengths;
    FORWARD TSN / I-FORWARD TSN entries; AUTH key and HMAC ids; ASCONF /
    ASCONF ACK serial numbers and parameters; ECNE/CWR lowest TSN;
  - a packet is malformed for both tools or for neither (our "error"
    against tshark's structural expert items), except where our codec
    enforces a rule of RFC 9260 that tshark does not check
    (STRICTER_THAN_TSHARK); on a malformed packet our chunk list is the
    part of tshark's before the flaw;
  - the checksum verdict: ours is "ok" exactly where tshark (checking
    CRC32c) says good; "adler32" exactly where tshark, checking Adler-32,
    says good and CRC32c does not; "zero" exactly where the field is 0 and
    CRC32c does not verify; "bad" where neither checksum verifies.

It prints one summary line per file and one line per disagreement (file,
frame, chunk, field, both values), and exits 1 on any disagreement or without
the corpus (it is in the repository), 77 (a meson skip) without tshark.

Usage: compare_tshark.py --decode BUILD/apps/dpsctp-decode/dpsctp-decode
                         --corpus DIR [--tshark PATH]
Python 3 standard library only.
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.prereq import cannot_run  # noqa: E402

CAPTURE_SUFFIXES = (".pcap", ".cap", ".pcapng")

# tshark -T json repeats a key when a field occurs more than once in one
# subtree (two DATA chunks, two gap blocks, ...); a dict would keep only the
# last. Objects are kept as ordered lists of (key, value) pairs instead.


class Tree(list):
    """A JSON object from tshark as an ordered list of (key, value) pairs."""

    def first(self, key, default=None):
        for k, v in self:
            if k == key:
                return v
        return default

    def all(self, key):
        return [v for k, v in self if k == key]

    def subtrees_with(self, key):
        """Direct child objects that carry `key` (chunks, parameters, causes)."""
        return [v for _, v in self if isinstance(v, Tree) and v.first(key) is not None]



# What tshark says about a packet's structure, beside the fields: expert
# items and "_ws.malformed". Those that are not about framing are ignored:
# the checksum (compared as a verdict below), retransmission and SACK
# analysis (tshark's association tracking, not the packet's form).
STRUCTURAL_EXPERTS = {
    "_ws.malformed",  # an exception: something ran past its end
    "_ws.short",      # the capture stops inside the packet (snap length)
    "sctp.chunk_length.bad",
    "sctp.parameter_length.bad",
    "sctp.sack_gap_block_malformed",
}

# tshark quirk: a chunk whose Length counts the padding of its last
# parameter (pkts__sctp-test.cap frame 1: INIT of length 32 ending in a
# 6-byte Supported Address Types parameter) gets "The padding of this final
# parameter should be the padding of the chunk" and "_ws.malformed". RFC
# 9260 §3.2 asks senders not to count that padding, but the bytes are
# unambiguous and a receiver (ours, Linux, usrsctp) accepts them, so the
# packet is well formed for the comparison.
PADDING_QUIRK = "sctp.parameter_padding.expert"


def tshark_complaints(tree):
    """The structural expert items anywhere in a tshark subtree."""
    found = []
    quirk = any(isinstance(v, Tree) and v.first(PADDING_QUIRK) is not None
                for k, v in tree if k == "_ws.expert")
    for k, v in tree:
        if k in STRUCTURAL_EXPERTS and not (quirk and k == "_ws.malformed"):
            found.append(k)
        if isinstance(v, Tree):
            found.extend(tshark_complaints(v))
    return found


def num(text):
    """tshark prints numbers as decimal or 0x-hex strings."""
    return int(text, 0)


def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), proc.returncode,
                                                 proc.stderr.decode(errors="replace").strip()))
    return proc.stdout.decode()


# ---------------------------------------------------------------- tshark side

def tshark_packets(tshark, path):
    """frame number -> (header dict, [chunk Tree, ...]) for frames with SCTP."""
    out = run([tshark, "-r", path, "-n",
               "-o", "sctp.checksum:CRC 32c",
               # Absolute TSNs: the relative ones are tshark's own arithmetic.
               "-o", "sctp.relative_tsns:FALSE",
               # SCTP only: with upper-layer dissection on, the HTTP dissector
               # calls two DATA payloads of pkts__sctp-www.cap malformed,
               # which says nothing about the SCTP packet.
               "-o", "sctp.ulp_dissection:FALSE",
               "-T", "json"])
    packets = {}
    for pkt in json.loads(out, object_pairs_hook=Tree):
        layers = pkt.first("_source").first("layers")
        frame = num(layers.first("frame").first("frame.number"))
        sctp_layers = layers.all("sctp")
        if not sctp_layers:
            continue
        head = sctp_layers[0]
        hdr = {
            "sport": num(head.first("sctp.srcport")),
            "dport": num(head.first("sctp.dstport")),
            "vtag": num(head.first("sctp.verification_tag")),
            "checksum_value": num(head.first("sctp.checksum")),
            "crc32c_status": num(head.first("sctp.checksum.status")),
            # "_ws.malformed" and "_ws.short" are layers of their own, after "sctp".
            "complaints": tshark_complaints(Tree((k, v) for k, v in layers if k != "frame")),
        }
        # Chunks after a DATA chunk continue in a later "sctp" layer (the
        # payload's "data" layer comes between).
        chunks = []
        for layer in sctp_layers:
            chunks.extend(layer.subtrees_with("sctp.chunk_type"))
        # tshark says "bogus chunk length 2 < 4" only in a chunk's label.
        if any(num(c.first("sctp.chunk_length")) < 4 for c in chunks):
            hdr["complaints"].append("chunk length < 4")
        packets[frame] = (hdr, chunks)
    return packets


def tshark_adler32_status(tshark, path):
    """frame number -> tshark's Adler-32 checksum status (1 good, 0 bad)."""
    out = run([tshark, "-r", path, "-n", "-o", "sctp.checksum:Adler 32",
               "-T", "fields", "-e", "frame.number", "-e", "sctp.checksum.status"])
    status = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 2 and parts[1]:
            status[int(parts[0])] = int(parts[1].split(",")[0])
    return status


def tshark_params(chunk):
    """Top-level parameters of a chunk: (type, length, address or None)."""
    params = []
    for p in chunk.subtrees_with("sctp.parameter_type"):
        addr = p.first("sctp.parameter_ipv4_address") or p.first("sctp.parameter_ipv6_address")
        params.append((num(p.first("sctp.parameter_type")),
                       num(p.first("sctp.parameter_length")), addr))
    return params


def tshark_causes(chunk):
    return [(num(c.first("sctp.cause_code")), num(c.first("sctp.cause_length")))
            for c in chunk.subtrees_with("sctp.cause_code")]


def tshark_tsn(chunk, field):
    """With relative TSNs off, tshark 4.0 names the absolute field *_raw."""
    value = chunk.first(field + "_raw")
    return num(value if value is not None else chunk.first(field))


def tshark_chunk_facts(chunk):
    """The comparable facts of one chunk, keyed like dpsctp-decode's JSON."""
    t = num(chunk.first("sctp.chunk_type"))
    f = {"type_id": t,
         "flags": num(chunk.first("sctp.chunk_flags")),
         "length": num(chunk.first("sctp.chunk_length"))}
    if t == 0:  # DATA
        f.update(tsn=tshark_tsn(chunk, "sctp.data_tsn"),
                 sid=num(chunk.first("sctp.data_sid")),
                 ssn=num(chunk.first("sctp.data_ssn")),
                 ppid=num(chunk.first("sctp.data_payload_proto_id")))
    elif t == 64:  # I-DATA: PPID on a first fragment, FSN on the others
        f.update(tsn=tshark_tsn(chunk, "sctp.data_tsn"),
                 sid=num(chunk.first("sctp.data_sid")),
                 mid=num(chunk.first("sctp.data_mid")))
        if f["flags"] & 0x02:
            f["ppid"] = num(chunk.first("sctp.data_payload_proto_id"))
        else:
            f["fsn"] = num(chunk.first("sctp.data_fsn"))
    elif t in (1, 2):  # INIT, INIT ACK
        pre = "sctp.init_" if t == 1 else "sctp.initack_"
        f.update(initiate_tag=num(chunk.first(pre + "initiate_tag")),
                 a_rwnd=num(chunk.first(pre + "credit")),
                 out_streams=num(chunk.first(pre + "nr_out_streams")),
                 in_streams=num(chunk.first(pre + "nr_in_streams")),
                 initial_tsn=num(chunk.first(pre + "initial_tsn")),
                 params=tshark_params(chunk))
    elif t == 3:  # SACK
        gaps = [(num(g.first("sctp.sack_gap_block_start")), num(g.first("sctp.sack_gap_block_end")))
                for g in chunk.subtrees_with("sctp.sack_gap_block_start")]
        f.update(cum_tsn=tshark_tsn(chunk, "sctp.sack_cumulative_tsn_ack"),
                 a_rwnd=num(chunk.first("sctp.sack_a_rwnd")),
                 n_gaps=num(chunk.first("sctp.sack_number_of_gap_blocks")),
                 n_dups=num(chunk.first("sctp.sack_number_of_duplicated_tsns")),
                 gaps=gaps,
                 dups=[num(d) for d in chunk.all("sctp.sack_duplicate_tsn")])
    elif t in (4, 5):  # HEARTBEAT, HEARTBEAT ACK: one Heartbeat Info parameter
        f["params"] = [(p, l) for p, l, _ in tshark_params(chunk)]
    elif t in (6, 9):  # ABORT, ERROR
        f["causes"] = tshark_causes(chunk)
    elif t == 7:  # SHUTDOWN
        f["cum_tsn"] = num(chunk.first("sctp.shutdown_cumulative_tsn_ack"))
    elif t == 12:  # ECNE
        f["lowest_tsn"] = num(chunk.first("sctp.ecne_lowest_tsn"))
    elif t == 13:  # CWR
        f["lowest_tsn"] = num(chunk.first("sctp.cwr_lowest_tsn"))
    elif t == 15:  # AUTH
        f.update(key_id=num(chunk.first("sctp.shared_key_id")),
                 hmac_id=num(chunk.first("sctp.hmac_id")))
    elif t == 192:  # FORWARD TSN
        f.update(new_cum_tsn=num(chunk.first("sctp.forward_tsn_tsn")),
                 streams=list(zip([num(v) for v in chunk.all("sctp.forward_tsn_sid")],
                                  [num(v) for v in chunk.all("sctp.forward_tsn_ssn")])))
    elif t == 194:  # I-FORWARD TSN
        sids = [num(v) for v in chunk.all("sctp.i_forward_tsn_sid")]
        flags = [num(v) for v in chunk.all("sctp.i_forward_tsn_flags")]
        mids = [num(v) for v in chunk.all("sctp.forward_tsn_mid")]
        f.update(new_cum_tsn=num(chunk.first("sctp.i_forward_tsn_tsn")),
                 streams=[(s, fl & 1, m) for s, fl, m in zip(sids, flags, mids)])
    elif t in (193, 128):  # ASCONF, ASCONF ACK
        seq = "sctp.asconf_seq_nr_number" if t == 193 else "sctp.asconf_ack_seq_nr_number"
        params = tshark_params(chunk)
        corr = []
        for p in chunk.subtrees_with("sctp.parameter_type"):
            c = p.first("sctp.correlation_id")
            if c is not None:
                # Add/Delete IP and Set Primary carry one address parameter.
                inner = [a for _, _, a in tshark_params(p)]
                corr.append((num(p.first("sctp.parameter_type")), num(c),
                             inner[0] if inner else None))
        f.update(serial=num(chunk.first(seq)), params=params, requests=corr)
    elif t == 130:  # RE-CONFIG
        f["params"] = [(p, l) for p, l, _ in tshark_params(chunk)]
    return f


# ----------------------------------------------------------------- our side

def our_packets(decode, path):
    packets = {}
    for line in run([decode, "--json", path]).splitlines():
        pkt = json.loads(line)
        packets[pkt["frame"]] = pkt
    return packets


def our_params(params):
    return [(p["type_id"], p["length"], p.get("addr") if p["type_id"] in (5, 6) else None)
            for p in params]


def our_chunk_facts(c):
    t = c["type_id"]
    f = {"type_id": t, "flags": c["flags"], "length": c["length"]}
    if "error" in c:
        f["error"] = c["error"]
    if t == 0:
        f.update({k: c.get(k) for k in ("tsn", "sid", "ssn", "ppid")})
    elif t == 64:
        f.update({k: c.get(k) for k in ("tsn", "sid", "mid")})
        if "ppid" in c:
            f["ppid"] = c["ppid"]
        else:
            f["fsn"] = c.get("fsn")
    elif t in (1, 2):
        f.update({k: c.get(k) for k in ("initiate_tag", "a_rwnd", "out_streams",
                                        "in_streams", "initial_tsn")})
        f["params"] = our_params(c.get("params", []))
    elif t == 3:
        gaps = [(g["start"], g["end"]) for g in c.get("gaps", [])]
        dups = c.get("dups", [])
        f.update(cum_tsn=c.get("cum_tsn"), a_rwnd=c.get("a_rwnd"), n_gaps=len(gaps),
                 n_dups=len(dups), gaps=gaps, dups=dups)
    elif t in (4, 5):
        f["params"] = [(1, c["info_len"] + 4)] if "info_len" in c else []
    elif t in (6, 9):
        f["causes"] = [(x["code"], x["length"]) for x in c.get("causes", [])]
    elif t == 7:
        f["cum_tsn"] = c.get("cum_tsn")
    elif t in (12, 13):
        f["lowest_tsn"] = c.get("lowest_tsn")
    elif t == 15:
        f.update(key_id=c.get("key_id"), hmac_id=c.get("hmac_id"))
    elif t == 192:
        f.update(new_cum_tsn=c.get("new_cum_tsn"),
                 streams=[(s["sid"], s["ssn"]) for s in c.get("streams", [])])
    elif t == 194:
        f.update(new_cum_tsn=c.get("new_cum_tsn"),
                 streams=[(s["sid"], s["unordered"], s["mid"]) for s in c.get("streams", [])])
    elif t in (193, 128):
        params = our_params(c.get("params", []))
        if t == 193 and "addr" in c:
            # tshark lists ASCONF's own address parameter with the others.
            a = c["addr"]
            params.insert(0, (6, 20, a) if ":" in a else (5, 8, a))
        requests = [(p["type_id"], p["correlation_id"], p.get("addr"))
                    for p in c.get("params", []) if "correlation_id" in p]
        f.update(serial=c.get("serial"), params=params, requests=requests)
    elif t == 130:
        f["params"] = [(p["type_id"], p["length"]) for p in c.get("params", [])]
    return f


# ---------------------------------------------------------------- comparing

def expected_verdict(hdr, adler_status):
    """What our verdict must be, from tshark's two checksum runs."""
    if hdr["crc32c_status"] == 2:
        return None  # tshark could not verify (capture cut short); neither do we
    if hdr["crc32c_status"] == 1:
        return "ok"
    if hdr["checksum_value"] == 0:
        return "zero"
    if adler_status == 1:
        return "adler32"
    return "bad"


# Where the two tools legitimately see malformed packets differently. Each
# entry is one of our error names and why tshark does not complain.
#
# Frames we report as malformed SCTP but tshark does not hand to its SCTP
# dissector at all:
NOT_SCTP_FOR_TSHARK = {
    "ip_fragment": "tshark holds IP fragments for reassembly and dissects the whole "
                   "datagram, if ever, in the last fragment's frame",
    "udp_len": "tshark's UDP dissector stops at a bad UDP length",
    "packet_too_short": "fewer than 12 bytes is not SCTP to tshark",
}
# Packets whose bytes tshark dissects without an expert item, but which
# break a rule of RFC 9260 that our codec enforces:
STRICTER_THAN_TSHARK = {
    "data_no_user_data": "RFC 9260 §6.2: a DATA chunk without user data is answered "
                         "with an ABORT (cause 9); tshark shows payload length 0",
    "chunk_not_alone": "RFC 9260 §6.10: INIT, INIT ACK and SHUTDOWN COMPLETE travel "
                       "alone; tshark dissects the bundle",
    "packet_no_chunks": "RFC 9260 §3: a packet carries at least one chunk; tshark "
                        "shows the common header alone",
    "chunk_pad_missing": "RFC 9260 §3.2: every chunk, the last included, is padded to "
                         "4 bytes; tshark does not check the last chunk's padding",
}


def compare_file(tshark, decode, path):
    """Returns (summary line, [disagreement lines])."""
    name = os.path.basename(path)
    theirs = tshark_packets(tshark, path)
    adler = tshark_adler32_status(tshark, path)
    ours = our_packets(decode, path)
    bad = []

    def differ(frame, where, field, t, o):
        bad.append("%s: frame %d%s: %s: tshark=%r dpsctp-decode=%r" %
                   (name, frame, where, field, t, o))

    for frame in sorted(set(theirs) | set(ours)):
        if frame not in ours:
            differ(frame, "", "SCTP", "present", "absent")
            continue
        mine = ours[frame]
        error = mine.get("error")
        if frame not in theirs:
            if error not in NOT_SCTP_FOR_TSHARK:
                differ(frame, "", "SCTP", "absent", "present")
            continue
        hdr, tchunks = theirs[frame]
        for key in ("sport", "dport", "vtag", "checksum_value"):
            if hdr[key] != mine.get(key):
                differ(frame, "", key, hdr[key], mine.get(key))
        want = expected_verdict(hdr, adler.get(frame))
        if mine.get("checksum") != want:
            differ(frame, "", "checksum verdict",
                   "%s (crc32c status %d, adler32 status %s)" %
                   (want, hdr["crc32c_status"], adler.get(frame)), mine.get("checksum"))
        # Malformed for one tool must be malformed for the other.
        if bool(error) != bool(hdr["complaints"]) and error not in STRICTER_THAN_TSHARK:
            differ(frame, "", "malformed", hdr["complaints"] or None, error)
        # We list the chunks up to the first flaw; tshark lists what it can.
        # Ours must be tshark's list, or a prefix of it when we name an error.
        ochunks = mine["chunks"]
        if len(ochunks) > len(tchunks) or (len(ochunks) < len(tchunks) and not error):
            differ(frame, "", "chunk count",
                   [num(c.first("sctp.chunk_type")) for c in tchunks],
                   [c["type_id"] for c in ochunks])
        for i, (tc, oc) in enumerate(zip(tchunks, ochunks)):
            tf = tshark_chunk_facts(tc)
            of = our_chunk_facts(oc)
            where = " chunk %d (%s)" % (i + 1, oc["type"])
            keys = set(tf) | set(of)
            if "error" in oc:
                # A chunk its codec refused: we show its header and the reason,
                # tshark whatever fields it could read.
                keys = {"type_id", "flags", "length"}
            for key in sorted(keys):
                if tf.get(key) != of.get(key):
                    differ(frame, where, key, tf.get(key), of.get(key))

    verdicts = {}
    nchunks = 0
    for pkt in ours.values():
        v = pkt.get("checksum") or "unverified"
        verdicts[v] = verdicts.get(v, 0) + 1
        nchunks += len(pkt["chunks"])
    vtext = " ".join("%s=%d" % (k, verdicts[k]) for k in sorted(verdicts))
    summary = "%-42s %4d SCTP packets, %4d chunks, verdicts %s: %s" % (
        name, len(ours), nchunks, vtext,
        "agree" if not bad else "%d DISAGREEMENTS" % len(bad))
    return summary, bad


# ------------------------------------------------------- synthetic captures
#
# The corpus has no VLAN tags, no UDP encapsulation, no IPv6 extension
# headers, no Linux SLL2 or raw-IP link, and few of the extension chunks,
# parameters and causes. These captures, written here from hand-assembled
# bytes, put all of them in front of both tools as well (--no-synthetic
# leaves them out).

def crc32c(data):
    """Reference CRC32c (RFC 3720 §B.4 polynomial, reflected), bit by bit."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def tlv(t, value):
    return struct.pack("!HH", t, 4 + len(value)) + value


def tlvs(*items):
    """Parameters or causes in a row: each padded but the last (RFC 9260 §3.2)."""
    return b"".join(pad4(i) for i in items[:-1]) + (items[-1] if items else b"")


def chunk(t, flags, value):
    return pad4(struct.pack("!BBH", t, flags, 4 + len(value)) + value)


def sctp(sport, dport, vtag, chunks, checksum="crc32c"):
    body = struct.pack("!HHII", sport, dport, vtag, 0) + b"".join(chunks)
    if checksum == "crc32c":
        c = struct.pack("<I", crc32c(body))
    elif checksum == "bad":
        c = struct.pack("<I", crc32c(body) ^ 1)
    else:
        c = b"\0\0\0\0"
    return body[:8] + c + body[12:]


V4A, V4B = bytes([10, 1, 0, 1]), bytes([10, 1, 0, 2])
V6A = bytes.fromhex("20010db8000000000000000000000001")
V6B = bytes.fromhex("20010db8000000000000000000000002")


def ipv4(proto, payload, frag=0):
    return struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, frag, 64, proto, 0,
                       V4A, V4B) + payload


def ipv6(nh, payload, ext=b""):
    return struct.pack("!IHBB16s16s", 0x60000000, len(ext) + len(payload), nh, 64,
                       V6A, V6B) + ext + payload


def udp(sport, dport, payload):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def eth(ethertype, payload, tags=()):
    hdr = bytes.fromhex("020000000002020000000001")
    for tpid, vid in tags:
        hdr += struct.pack("!HH", tpid, vid)
    frame = hdr + struct.pack("!H", ethertype) + payload
    return frame + b"\0" * max(0, 60 - len(frame))  # Ethernet minimum size


def data(tsn, sid, ssn, ppid, payload, flags=3):
    return chunk(0, flags, struct.pack("!IHHI", tsn, sid, ssn, ppid) + payload)


def synthetic_ethernet_frames():
    """(frame bytes, caplen or None) for the Ethernet capture."""
    init_params = tlvs(
        tlv(5, V4A), tlv(6, V6A), tlv(12, struct.pack("!HH", 5, 6)),
        tlv(9, struct.pack("!I", 5000)), tlv(0x8000, b""), tlv(0xC000, b""),
        tlv(0x8008, bytes([0x40, 0xC2, 0x82, 0xC1, 0x80])), tlv(0x8002, bytes(range(32))),
        tlv(0x8003, bytes([0x00, 0x03])), tlv(0x8004, struct.pack("!HH", 1, 3)),
        tlv(0x8001, struct.pack("!I", 1)), tlv(0xC006, struct.pack("!I", 0x11223344)))
    init = chunk(1, 0, struct.pack("!IIHHI", 0xA1B2C3D4, 131072, 16, 32, 1000) + init_params)
    init_ack = chunk(2, 0, struct.pack("!IIHHI", 0x0BADCAFE, 65536, 8, 16, 5000) + tlvs(
        tlv(7, b"cookie!" * 5), tlv(8, tlv(0x8123, b"zz")), tlv(0xC000, b"")))
    sack = chunk(3, 0, struct.pack("!IIHH", 999, 60000, 2, 3) + struct.pack("!HHHH", 2, 3, 5, 9)
                 + struct.pack("!III", 990, 991, 995))
    nr_sack = chunk(16, 0, struct.pack("!IIHHHH", 999, 60000, 1, 1, 1, 0)
                    + struct.pack("!HHHH", 2, 3, 5, 6) + struct.pack("!I", 997))
    abort = chunk(6, 1, tlvs(
        tlv(1, struct.pack("!HH", 7, 0)), tlv(2, struct.pack("!IHH", 2, 7, 9)),
        tlv(3, struct.pack("!I", 250000)), tlv(12, b"shutting down\0"),
        tlv(13, b"bad TSN")))
    error = chunk(9, 0, tlvs(
        tlv(6, struct.pack("!BBH", 0x4F, 0, 8) + b"abcd"), tlv(8, tlv(0x8123, b"zz")),
        tlv(9, struct.pack("!I", 77)), tlv(4, b""), tlv(10, b""),
        tlv(5, tlv(5, V4B)), tlv(0x105, struct.pack("!H", 2))))
    fwd = chunk(192, 0, struct.pack("!IHHHH", 4000, 1, 10, 5, 20))
    ifwd = chunk(194, 0, struct.pack("!IHHIHHI", 4000, 2, 1, 100, 7, 0, 200))
    reconf1 = chunk(130, 0, tlvs(
        tlv(13, struct.pack("!IIIHH", 1, 2, 3000, 4, 5)), tlv(14, struct.pack("!IH", 2, 4))))
    reconf2 = chunk(130, 0, tlvs(tlv(16, struct.pack("!IIII", 1, 1, 100, 200))))
    reconf3 = chunk(130, 0, tlvs(tlv(17, struct.pack("!IHH", 3, 8, 0)),
                                 tlv(18, struct.pack("!IHH", 4, 2, 0))))
    asconf = chunk(193, 0, struct.pack("!I", 7) + tlvs(
        tlv(6, V6A), tlv(0xC001, struct.pack("!I", 1) + tlv(6, V6B)),
        tlv(0xC004, struct.pack("!I", 2) + tlv(5, V4B))))
    asconf_ack = chunk(128, 0, struct.pack("!I", 7) + tlvs(
        tlv(0xC005, struct.pack("!I", 1)),
        tlv(0xC003, struct.pack("!I", 2) + tlv(0xA2, tlv(0xC002, struct.pack("!I", 2) + tlv(5, V4A))))))
    frames = [
        eth(0x0800, ipv4(132, sctp(5000, 80, 0, [init]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [init_ack])), [(0x8100, 10)]),
        eth(0x86DD, ipv6(0, sctp(5000, 80, 0x0BADCAFE, [
            data(1000, 1, 0, 46, b"hello"), data(1001, 2, 7, 46, b"world!!!", 0x07), sack]),
            ext=bytes([60, 0, 1, 4, 0, 0, 0, 0]) + bytes([132, 0, 1, 4, 0, 0, 0, 0])),
            [(0x88A8, 100), (0x8100, 10)]),
        eth(0x0800, ipv4(17, udp(9899, 9899, sctp(5000, 80, 0x0BADCAFE, [
            data(1002, 0, 1, 0, b"over udp")])))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [
            chunk(64, 0x02, struct.pack("!IHHII", 1003, 3, 0, 5, 51) + b"first"),
            chunk(64, 0x00, struct.pack("!IHHII", 1004, 3, 0, 5, 1) + b"middle"),
            chunk(64, 0x05, struct.pack("!IHHII", 1005, 3, 0, 6, 2) + b"last")]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [nr_sack]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [abort]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [error]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [chunk(7, 0, struct.pack("!I", 1004))]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [chunk(8, 0, b"")]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [chunk(14, 1, b"")]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [
            chunk(12, 0, struct.pack("!I", 1001)), chunk(13, 0, struct.pack("!I", 1001))]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [fwd, ifwd]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [reconf1]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [reconf2]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [reconf3]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [asconf]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [asconf_ack]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [
            chunk(132, 0, bytes(20)), chunk(4, 0, tlv(1, b"hb-info-1234"))]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [chunk(5, 0, tlv(1, b"hb-info-1234"))]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [
            chunk(15, 0, struct.pack("!HH", 1, 1) + bytes(20)), data(1006, 0, 2, 0, b"authd")]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [
            chunk(0x4F, 0, b"unknown"), chunk(0xBF, 0x12, b"")]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [chunk(10, 0, b"c" * 21)]))),
        eth(0x0800, ipv4(132, sctp(80, 5000, 0xA1B2C3D4, [chunk(11, 0, b"")]))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [data(1007, 0, 3, 0, b"bad")],
                                  checksum="bad"))),
        eth(0x0800, ipv4(132, sctp(5000, 80, 0x0BADCAFE, [data(1008, 0, 4, 0, b"zero")],
                                  checksum="zero"))),
        # UDP that is not SCTP, and ARP: skipped by both.
        eth(0x0800, ipv4(17, udp(53, 40000, b"\0" * 12))),
        eth(0x0806, bytes(28)),
    ]
    return [(f, None) for f in frames]


def synthetic_malformed_frames():
    """Malformed SCTP, each frame with one flaw; (frame, caplen or None)."""
    vt = 0x0BADCAFE

    def raw_sctp(body, checksum="crc32c"):
        """A packet from raw chunk bytes, no padding added."""
        return sctp(5000, 80, vt, [body], checksum)

    def v4(payload, frag=0):
        return eth(0x0800, ipv4(132, payload, frag))

    good = sctp(5000, 80, vt, [data(7, 0, 0, 0, b"payload-bytes")])
    frames = [
        (v4(raw_sctp(struct.pack("!BBHIHHI", 0, 3, 100, 1, 0, 0, 0) + b"abcd")), None),
        (v4(raw_sctp(struct.pack("!BBHIHHI", 0, 3, 16, 2, 0, 0, 0))), None),
        (v4(raw_sctp(struct.pack("!BBHIIHH", 3, 0, 20, 1, 1000, 5, 0) + struct.pack("!HH", 1, 2))),
         None),
        (v4(raw_sctp(struct.pack("!BBH", 11, 0, 2))), None),
        (v4(sctp(5000, 80, 0, [chunk(1, 0, struct.pack("!IIHHI", 1, 65536, 1, 1, 1)),
                               data(8, 0, 0, 0, b"x")])), None),
        (v4(good), 14 + 20 + 12 + 10),
        (v4(good, frag=0x2000), None),
        (eth(0x86DD, ipv6(44, good, ext=bytes([132, 0, 0, 1, 0, 0, 0, 9]))), None),
        (v4(good[:8]), None),
        (v4(sctp(5000, 80, vt, [])), None),
        (eth(0x0800, ipv4(17, struct.pack("!HHHH", 9899, 9899, 4, 0) + good)), None),
        (v4(sctp(5000, 80, 0, [chunk(1, 0, struct.pack("!IIHHI", 1, 65536, 1, 1, 1)
                                     + struct.pack("!HH", 5, 40) + V4A)])), None),
        (v4(raw_sctp(struct.pack("!BBH", 11, 0, 5) + b"x")), None),
    ]
    return frames


def write_pcap(path, linktype, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for i, (frame, caplen) in enumerate(frames):
            n = len(frame) if caplen is None else caplen
            f.write(struct.pack("<IIII", 1700000000 + i, 0, n, len(frame)))
            f.write(frame[:n])


def synthetic_captures(directory):
    """Write the synthetic captures; returns their paths."""
    one = sctp(5000, 80, 0x0BADCAFE, [data(1, 0, 0, 0, b"link")])
    sll2 = struct.pack("!HHIHBB8s", 0x0800, 0, 2, 1, 4, 6, bytes(8))
    sll = struct.pack("!HHH8sH", 4, 1, 6, bytes(8), 0x86DD)
    captures = {
        "synthetic-ethernet.pcap": (1, synthetic_ethernet_frames()),
        "synthetic-malformed.pcap": (1, synthetic_malformed_frames()),
        "synthetic-sll2.pcap": (276, [(sll2 + ipv4(132, one), None)]),
        "synthetic-sll.pcap": (113, [(sll + ipv6(132, one), None)]),
        "synthetic-raw.pcap": (101, [(ipv4(132, one), None), (ipv6(132, one), None)]),
        "synthetic-null.pcap": (0, [(struct.pack("<I", 2) + ipv4(132, one), None)]),
    }
    paths = []
    for name, (linktype, frames) in captures.items():
        path = os.path.join(directory, name)
        write_pcap(path, linktype, frames)
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decode", required=True, help="path of the dpsctp-decode binary")
    ap.add_argument("--corpus", required=True, help="directory of captures")
    ap.add_argument("--tshark", default="", help="path of tshark (default: from PATH)")
    ap.add_argument("--no-synthetic", action="store_true",
                    help="compare the corpus only, not the synthetic captures")
    args = ap.parse_args()

    tshark = args.tshark or shutil.which("tshark")
    if not tshark or not os.path.exists(tshark):
        return cannot_run("tshark not found (Debian package tshark); nothing to compare against")
    # The corpus is part of the repository (tests/corpus/pcap): without it
    # the checkout is broken, which is a failure, not a reason to skip.
    if not os.path.isdir(args.corpus):
        print("FAIL: corpus directory %s does not exist" % args.corpus)
        return 1
    files = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                   if f.endswith(CAPTURE_SUFFIXES))
    if not files:
        print("FAIL: no captures (%s) in %s" % (" ".join(CAPTURE_SUFFIXES), args.corpus))
        return 1

    with tempfile.TemporaryDirectory(prefix="dpsctp-decode-") as tmp:
        if not args.no_synthetic:
            files += synthetic_captures(tmp)
        failures = 0
        for path in files:
            try:
                summary, bad = compare_file(tshark, args.decode, path)
            except (RuntimeError, ValueError, KeyError, TypeError) as e:
                summary, bad = "%s: ERROR %s" % (os.path.basename(path), e), [str(e)]
            print(summary)
            for line in bad:
                print("  " + line)
            failures += len(bad)
    print("%d files, %d disagreements" % (len(files), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
