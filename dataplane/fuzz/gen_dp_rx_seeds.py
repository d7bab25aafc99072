#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write fuzz_dp_rx.c's seeds into seeds/fuzz_dp_rx/ beside this script.

    gen_dp_rx_seeds.py [OUT_DIR]

Each seed is the target's input format (fuzz_dp_rx.c's comment): an
options byte, then records (opcode, u16 length, body). The harness learns the instance's tags,
TSNs and cookie from what it sends, so a seed names chunks, not values:
a handshake, then DATA, SACK, HEARTBEAT, SHUTDOWN and the rest, each seed
one way an association lives and ends. Run it again after a change of the
input format and keep what it writes.
"""
import os
import struct
import sys

RAW, PACKET, CLOCK, SEND, SHUTDOWN, ABORT, CONNECT = range(7)
# fz_chunk_any() kinds
DATA, SACK, HB, HB_ACK, SHUT, SHUT_ACK, SHUT_COMPLETE, ABORT_CHUNK, INIT, INIT_ACK, \
    COOKIE_ECHO, COOKIE_ACK, ERROR, FWD_TSN, IDATA, RECONF, ANY = range(17)


def record(op, body):
    """One operation: opcode, u16 length (little endian), body."""
    return bytes([op]) + struct.pack("<H", len(body)) + body


def packet(slot, chunks, tag=0, bad_crc=False, closed=False):
    """One structure-aware packet: chunks are byte strings of fz_chunk_any()."""
    how = tag | (4 if bad_crc else 0) | (8 if closed else 0) | ((len(chunks) - 1) << 5)
    xor = b"\x01\x00\x00\x80" if tag == 3 else b""  # tag 3: the right one with bits flipped
    return record(PACKET, bytes([slot, how]) + xor + b"".join(chunks) + b"\x00")


def op(code, *args):
    return record(code, bytes(args))


def init(opts=0x06, streams=0x33, rwnd=8, tag=None, tsn=0):
    """INIT with Supported Extensions and Forward-TSN-Supported (opts 0x06;
    0x26: I-DATA too);
    with tag, a new tag and initial TSN (opts bit 0)."""
    if tag is None:
        return bytes([INIT, opts, streams, rwnd])
    return bytes([INIT, opts | 1]) + struct.pack("<II", tag, tsn) + bytes([streams, rwnd])


def init_ack(cookie=b"harness-cookie!!", opts=0x06):
    return bytes([INIT_ACK, opts, len(cookie) - 8]) + cookie + bytes([0x33, 8])


def cookie_echo(flip=0):
    return bytes([COOKIE_ECHO, flip])


def data(flags=3, sid=0, delta=0, length=100, ppid=60):
    return bytes([DATA, flags, sid, delta & 0xFF, length, ppid])


def idata(flags=3, sid=0, length=100):
    return bytes([IDATA, flags, sid, 0, length])


def sack(delta=0, gaps=0, dups=0, extra=b""):
    return bytes([SACK, delta & 0xFF, gaps | dups << 2]) + extra


def clock(ns_shift, mult=0):
    return op(CLOCK, ns_shift, mult)


def handshake(slot=0, opts=0x06):
    return packet(slot, [init(opts=opts)]) + packet(slot, [cookie_echo()])


SEEDS = {
    # INIT, COOKIE ECHO, DATA both ways, SACKs, a heartbeat each way, SHUTDOWN.
    "handshake_data_shutdown": handshake()
    + packet(0, [data(), data(sid=1, length=40)])
    + op(SEND, 0, 0, 200, 0) + clock(20, 200)
    + packet(0, [sack()])
    + packet(0, [bytes([HB, 8]) + b"hb-info!"])
    + clock(33, 20) + packet(0, [bytes([HB_ACK, 0])])
    + packet(0, [bytes([SHUT, 0])]) + packet(0, [bytes([SHUT_COMPLETE, 0])]),
    # The instance connects: INIT out, INIT ACK in, COOKIE ECHO out, COOKIE ACK in.
    "connect_send_abort": op(CONNECT, 1) + packet(1, [init_ack()])
    + packet(1, [bytes([COOKIE_ACK])]) + op(SEND, 1, 2, 100, 0)
    + packet(1, [sack()]) + op(ABORT, 1),
    # Sent data never acknowledged: T3 expiries until the association is lost.
    "t3_until_lost": handshake() + op(SEND, 0, 0, 255, 0) + op(SEND, 0, 1, 255, 1)
    + b"".join(clock(30, 0) for _ in range(12)),
    # I-DATA fragments, FORWARD TSN, RE-CONFIG requests, a shutdown by the API.
    "idata_fwdtsn_reconf": handshake(opts=0x26)
    + packet(0, [idata(flags=2, length=60), idata(flags=0, length=60), idata(flags=1, length=10)])
    + packet(0, [bytes([FWD_TSN, 0x08 | 1, 2, 0])])
    + packet(0, [bytes([RECONF, 0, 1, 1])]) + packet(0, [bytes([RECONF, 4, 0, 2])])
    + op(SEND, 0, 0, 50, 2 | 8) + clock(31, 0) + packet(0, [bytes([RECONF, 3, 0, 0])])
    + op(SHUTDOWN, 0) + packet(0, [sack()]) + packet(0, [bytes([SHUT_ACK])]),
    # Every slot: the association table full, then a fifth INIT from another port.
    "table_full": b"".join(handshake(s) for s in range(4))
    + packet(0, [init(tag=0x11223344, tsn=5566)])
    + packet(2, [data(delta=5), data(), sack(gaps=2, dups=1, extra=b"\x01\x02\x04\x03\x00")]),
    # Bad input among good: a wrong tag, a bad CRC, the closed port, an ABORT with T.
    "bad_tags_crc_closed": handshake()
    + packet(0, [data()], tag=3) + packet(0, [data()], bad_crc=True)
    + packet(1, [init()], closed=True) + packet(0, [data()], tag=1)
    + packet(0, [bytes([ABORT_CHUNK, 1])], tag=1),
    # A peer restart: a new INIT (new tag) while established.
    "restart": handshake() + packet(0, [data()])
    + packet(0, [init(tag=0x55667788, tsn=77)])
    + packet(0, [cookie_echo()]) + packet(0, [data()]),
    # Cookie not echoed in time (life 60 s) and a changed cookie byte.
    "stale_and_bad_cookie": packet(0, [init()]) + clock(36, 0) + packet(0, [cookie_echo()])
    + packet(1, [init()]) + packet(1, [cookie_echo(flip=0x21)]),
    # Raw frames: an ARP request for the instance and a runt, as they come.
    "raw_frames": record(RAW, bytes(2) + bytes(6) + bytes.fromhex("02000000000908060001080006040001")
                         + bytes.fromhex("020000000009") + bytes([10, 0, 0, 9]) + bytes(6)
                         + bytes([10, 0, 0, 2]))
    + record(RAW, bytes(2) + bytes(10)),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "seeds", "fuzz_dp_rx")
    os.makedirs(out, exist_ok=True)
    for name, body in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"\x00" + body)
    print(f"{len(SEEDS)} seeds in {out}")


if __name__ == "__main__":
    main()
