#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes fuzz_decode's seeds (seeds/): small pcap and pcapng captures of
the forms dpsctp-decode reads, so the fuzzer starts with every reader path
reached: classic pcap in both byte orders and both time resolutions, pcapng
with several interfaces and block kinds, and each link type the decoder
maps (Ethernet with a VLAN tag, raw IPv4/IPv6, Linux cooked SLL and SLL2,
BSD loopback), SCTP over IP and over UDP port 9899. The packets are an
INIT, a DATA and an ABORT with an error cause, checksums correct.

  make_seeds.py [OUT_DIR]    (default: seeds/ beside this file)

Deterministic: running it again writes the same bytes.
"""
import os
import struct
import sys

CRC32C_POLY = 0x82F63B78


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (CRC32C_POLY if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def sctp(vtag, chunks, sport=5000, dport=5001):
    body = b"".join(chunks)
    pkt = struct.pack("!HHII", sport, dport, vtag, 0) + body
    crc = crc32c(pkt)
    return pkt[:8] + struct.pack("<I", crc) + pkt[12:]


def chunk(ctype, flags, value):
    c = struct.pack("!BBH", ctype, flags, 4 + len(value)) + value
    return c + b"\0" * (-len(c) % 4)


INIT = chunk(1, 0, struct.pack("!IIHHI", 0x11223344, 65536, 10, 10, 1) +
             struct.pack("!HH4s", 5, 8, bytes([10, 0, 0, 1])) +      # IPv4 address
             struct.pack("!HHBBBB", 0x8008, 8, 0x82, 0xC0, 0x80, 0) +  # supported extensions
             struct.pack("!HH", 0xC000, 4))                          # forward-TSN supported
DATA = chunk(0, 3, struct.pack("!IHHI", 1, 0, 0, 51) + b"hello\n\"world\"\x00\xff")
ABORT = chunk(6, 0, struct.pack("!HH", 3, 8) + b"\0\0\0\0")  # stale cookie, 0 us
PACKETS = [sctp(0, [INIT]), sctp(0x11223344, [DATA]), sctp(0x11223344, [ABORT])]


def ipv4(payload, proto=132):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, 0x4000, 64, proto, 0,
                    bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    s = sum(struct.unpack("!10H", h))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    return h[:10] + struct.pack("!H", ~s & 0xFFFF) + h[12:] + payload


def ipv6(payload, proto=132):
    return (struct.pack("!IHBB", 6 << 28, len(payload), proto, 64) +
            bytes.fromhex("20010db8000000000000000000000001") +
            bytes.fromhex("20010db8000000000000000000000002") + payload)


def udp(payload, sport=9899, dport=9899):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


MACS = bytes.fromhex("020000000002020000000001")


def ether(ip, vlan=False):
    etype = b"\x86\xdd" if ip[0] >> 4 == 6 else b"\x08\x00"
    tag = b"\x81\x00\x00\x05" if vlan else b""
    return MACS + tag + etype + ip


def sll(ip):
    etype = 0x86DD if ip[0] >> 4 == 6 else 0x0800
    return struct.pack("!HHH8sH", 0, 1, 6, MACS[:6] + b"\0\0", etype) + ip


def sll2(ip):
    etype = 0x86DD if ip[0] >> 4 == 6 else 0x0800
    return struct.pack("!HHIHBB8s", etype, 0, 1, 1, 0, 6, MACS[:6] + b"\0\0") + ip


def loopback(ip):
    return struct.pack("<I", 30 if ip[0] >> 4 == 6 else 2) + ip


def pcap(linktype, frames, endian="<", nano=False):
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    out = struct.pack(endian + "IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for i, f in enumerate(frames):
        out += struct.pack(endian + "IIII", 1700000000 + i, 1000 * i, len(f), len(f)) + f
    return out


def block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def pcapng(ifaces, records):
    """ifaces: link types; records: (kind, iface, frame), kind 'epb' or 'spb'
    (a simple packet block belongs to interface 0)."""
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    for lt in ifaces:
        out += block(1, struct.pack("<HHI", lt, 0, 65535))
    for i, (kind, iface, f) in enumerate(records):
        if kind == "spb":
            out += block(3, struct.pack("<I", len(f)) + f)
        else:
            ts = 1700000000000000 + i
            out += block(6, struct.pack("<IIIII", iface, ts >> 32, ts & 0xFFFFFFFF, len(f),
                                        len(f)) + f)
    return out


def seeds():
    v4 = [ipv4(p) for p in PACKETS]
    v6 = [ipv6(p) for p in PACKETS]
    return {
        "ether-vlan.pcap": pcap(1, [ether(v4[0]), ether(v6[1], vlan=True), ether(v4[2])]),
        "raw-be-nano.pcap": pcap(101, v4 + [ipv6(udp(PACKETS[1]), proto=17)], ">", True),
        "sll.pcap": pcap(113, [sll(v4[0]), sll(ipv4(udp(PACKETS[1]), proto=17))]),
        "sll2.pcap": pcap(276, [sll2(v6[0]), sll2(v6[2])]),
        "loopback.pcap": pcap(0, [loopback(v4[1]), loopback(v6[2])]),
        "ether-ipv6.pcapng": pcapng([1], [("epb", 0, ether(f)) for f in v6]),
        "two-ifaces.pcapng": pcapng([1, 101], [("epb", 0, ether(v4[0])), ("epb", 1, v6[1]),
                                               ("spb", 0, ether(v4[2]))]),
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "seeds")
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
