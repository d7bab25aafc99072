#!/usr/bin/env python3
"""Write the sidecar fuzz targets' seeds (seeds/<target>/ beside this file),
in each target's format: a byte of geometry or limits, then operations (an
opcode byte and its operands). The fuzzer mutates them, so they need only
reach each part once. fuzz_sidecar: every request posted and served with its
arena bytes, completions and events read back, hostile indices and slots,
the instance's requests on worker 1. fuzz_sc_server: hellos good, too big,
malformed, short, with a descriptor, silent connections, departures."""
import os
import struct

POST, SERVE, CONSUME, EVENT, READ, REAP, SLOT, INDEX, BYTES = range(9)
(LISTEN, CONNECT, SEND, SHUTDOWN, ABORT, RELEASE, UNLISTEN, SET_SCHED, GET_SCHED,
 SET_STREAM_PARAM, GET_STREAM_PARAM, RESET_STREAMS, ADD_STREAMS, RESET_ASSOC,
 SETOPT, GETOPT) = range(1, 17)
ASSOC = (1 << 32) | 1


def req(op, flags=0, sid=0, ppid=0, assoc=0, off=0, length=0, port=0, value=0, context=0):
    return struct.pack("<BBHIQQQIHHIIII8s", op, flags, sid, ppid, 0, assoc, off, length, port,
                       0, 0, 0, value, context, bytes(8))


def post(r, tidy=True, payload=b""):
    return bytes([POST, 1 if tidy else 0]) + r + payload


def serve(choices=b"\x00" * 8):
    return bytes([SERVE]) + choices


def seed_all_requests(worker):
    ops = b""
    reqs = [req(LISTEN, port=5000), req(CONNECT, port=5000, length=20),
            req(SEND, assoc=ASSOC, length=100), req(SEND, flags=4, assoc=ASSOC, length=10),
            req(SHUTDOWN, assoc=ASSOC), req(ABORT, assoc=ASSOC), req(RELEASE),
            req(UNLISTEN, port=5000), req(SET_SCHED, assoc=ASSOC, value=2),
            req(GET_SCHED, assoc=ASSOC), req(SET_STREAM_PARAM, assoc=ASSOC, value=7),
            req(GET_STREAM_PARAM, assoc=ASSOC), req(RESET_STREAMS, assoc=ASSOC, value=3,
                                                    length=4),
            req(ADD_STREAMS, assoc=ASSOC, value=0x10001), req(RESET_ASSOC, assoc=ASSOC),
            req(SETOPT, value=3, length=16), req(GETOPT, assoc=ASSOC, value=9, length=0)]
    for i, r in enumerate(reqs):
        ops += post(r, payload=bytes(range(i, i + 64)))
        if i % 4 == 3:
            ops += serve() + bytes([CONSUME, 8])
    ops += serve() + bytes([CONSUME, 8])
    return bytes([8 * worker]) + ops


def seed_send_wait():
    # A SEND the data plane has no room for (choice 7: retry), ABORTs behind it.
    ops = post(req(SEND, assoc=ASSOC, length=200), payload=b"x" * 64)
    ops += post(req(ABORT, assoc=ASSOC)) + post(req(ABORT, assoc=ASSOC + 1))
    ops += serve(b"\x07") + serve(b"\x07") + serve(b"\x00\x00\x00") + bytes([CONSUME, 8])
    return bytes([1]) + ops


def seed_events():
    ops = b""
    for n in (1, 100, 1000, 1024):
        ops += bytes([EVENT]) + struct.pack("<H", n)
    ops += bytes([READ, 2, REAP, EVENT, 0x10, 0x02, READ, 8, REAP])
    return bytes([2]) + ops


def seed_hostile():
    ops = post(req(SEND, assoc=ASSOC, length=50), payload=b"y" * 50)
    ops += bytes([INDEX, 0]) + struct.pack("<I", 0x0000_0201)  # request head + 2
    ops += serve()
    ops += post(req(GET_SCHED, assoc=ASSOC))
    ops += bytes([SLOT, 0]) + struct.pack("<I", 0) + req(SEND, assoc=ASSOC, off=4000,
                                                          length=500)
    ops += serve()
    ops += bytes([INDEX, 2]) + struct.pack("<I", 0x7fff_0000)  # completion tail
    ops += post(req(RELEASE)) + serve()
    ops += bytes([BYTES, 0, 0, 16]) + b"z" * 16
    ops += bytes([INDEX, 4]) + struct.pack("<I", 0x0000_ff01)  # event tail - 1
    ops += post(req(RELEASE)) + serve()
    ops += bytes([INDEX, 7]) + struct.pack("<I", 0x1234_5678)  # rx arena tail
    ops += bytes([REAP, EVENT, 4, 0])
    return bytes([0]) + ops


def seed_malformed():
    ops = post(req(0xff, assoc=ASSOC), tidy=False)
    ops += post(req(SHUTDOWN, assoc=0), tidy=False)
    ops += post(req(RESET_STREAMS, assoc=ASSOC, value=1, length=0), tidy=False)
    ops += post(req(SETOPT, value=3, length=300), tidy=False, payload=b"o" * 64)
    ops += serve() + bytes([CONSUME, 8])
    ops += post(req(CONNECT, port=0, length=20), tidy=False, payload=b"c" * 20)
    ops += serve() + bytes([CONSUME, 8])
    return bytes([5]) + ops


S_CONNECT, S_SEND, S_CLOSE, S_POLL = range(4)
MAGIC = 0x4450534354505343
VERSION = 8


def hello(threads=1, slots=0, arena=0, flags=0, name=b"app"):
    return struct.pack("<QIIIIQ32s", MAGIC, VERSION, threads, slots, flags, arena, name)


def send(client, mode, body=b"", length=None):
    body = body.ljust(128, b"\0")
    out = bytes([S_SEND, client, mode]) + body
    if mode & 8:
        out += bytes([length])
    return out


def server_seeds():
    good = hello(2, 64, 65536)
    return {
        # limits: 2 applications, 2 threads, 2 pending, one worker
        "attach-detach": bytes([0x15]) + bytes([S_CONNECT]) + send(0, 0, good) +
        bytes([S_POLL, S_CONNECT]) + send(1, 0, hello(1)) + bytes([S_POLL]) +
        send(0, 0, b"more") + bytes([S_POLL, S_CLOSE, 1, S_POLL]),
        "refusals": bytes([0x15]) + bytes([S_CONNECT]) + send(0, 0, hello(9)) +
        bytes([S_CONNECT]) + send(1, 0, hello(1, 128)) + bytes([S_CONNECT]) +
        send(2, 0, hello(1, 100)) + bytes([S_CONNECT]) + send(3, 8, good, 40) +
        bytes([S_CONNECT]) + send(4, 0x30, good) + bytes([S_POLL, S_POLL]),
        "silent": bytes([0x40]) + bytes([S_CONNECT] * 5) + bytes([S_POLL, S_CONNECT, S_POLL]) +
        send(5, 1, good) + bytes([S_POLL, S_POLL]),
        "zero-copy": bytes([0x95]) + bytes([S_CONNECT]) + send(0, 0, hello(1, flags=1)) +
        bytes([S_CONNECT]) + send(1, 0, hello(2)) + bytes([S_POLL, S_CLOSE, 0, S_POLL]),
        "tidy": bytes([0x7f]) + bytes([S_CONNECT]) + send(0, 1, good) + bytes([S_CONNECT]) +
        send(1, 7, good) + bytes([S_POLL, S_POLL, S_CLOSE, 0, S_POLL]),
    }


def main():
    base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
    for name, data in server_seeds().items():
        out = os.path.join(base, "fuzz_sc_server")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    out = os.path.join(base, "fuzz_sidecar")
    os.makedirs(out, exist_ok=True)
    seeds = {"all-requests-w0": seed_all_requests(0), "all-requests-w1": seed_all_requests(1),
             "send-wait": seed_send_wait(), "events": seed_events(), "hostile": seed_hostile(),
             "malformed": seed_malformed()}
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
