#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a small sample capture: one SCTP association between 192.0.2.1 and
192.0.2.2, from INIT to SHUTDOWN COMPLETE with two messages and their SACK
(valid CRC32c). The build writes it to build/docs/sample.pcap for the
README's "decode a capture yourself" and for ./dev.sh run; the packet
builders are dpsctp-decode's test's (apps/dpsctp-decode/tests).

usage: sample_pcap.py OUT.pcap
"""
import os
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "apps", "dpsctp-decode", "tests"))
from compare_tshark import chunk, data, sctp, tlv, write_pcap  # noqa: E402

CLIENT, SERVER = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])
MAC = {CLIENT: bytes.fromhex("020000000001"), SERVER: bytes.fromhex("020000000002")}
CPORT, SPORT = 40000, 5001
CTAG, STAG = 0x1A2B3C4D, 0x5E6F7081  # each side's Initiate Tag: the other's vtag


def frame(src, dst, packet):
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(packet), 0, 0x4000, 64, 132, 0,
                     src, dst)
    ip = ip[:10] + struct.pack("!H", ipsum(ip)) + ip[12:]
    f = MAC[dst] + MAC[src] + struct.pack("!H", 0x0800) + ip + packet
    return f + b"\0" * max(0, 60 - len(f))


def ipsum(hdr):
    s = sum(struct.unpack("!10H", hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def c2s(chunks, tag=STAG):
    return frame(CLIENT, SERVER, sctp(CPORT, SPORT, tag, chunks))


def s2c(chunks, tag=CTAG):
    return frame(SERVER, CLIENT, sctp(SPORT, CPORT, tag, chunks))


def main():
    cookie = bytes(range(32))
    frames = [
        c2s([chunk(1, 0, struct.pack("!IIHHI", CTAG, 262144, 16, 16, 100))], tag=0),
        s2c([chunk(2, 0, struct.pack("!IIHHI", STAG, 262144, 16, 16, 500) + tlv(7, cookie))]),
        c2s([chunk(10, 0, cookie)]),
        s2c([chunk(11, 0, b"")]),
        c2s([data(100, 0, 0, 0, b"hello"), data(101, 1, 0, 0, b"sample capture")]),
        s2c([chunk(3, 0, struct.pack("!IIHH", 101, 262144, 0, 0))]),
        c2s([chunk(7, 0, struct.pack("!I", 499))]),
        s2c([chunk(8, 0, b"")]),
        c2s([chunk(14, 0, b"")]),
    ]
    write_pcap(sys.argv[1], 1, [(f, None) for f in frames])
    return 0


if __name__ == "__main__":
    sys.exit(main())
