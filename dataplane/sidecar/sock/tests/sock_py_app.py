#!/usr/bin/env python3
"""A Python program that uses socket.IPPROTO_SCTP and knows nothing of
dpsctp: run under LD_PRELOAD=libdpsctp-sock.so by sock_test.py. Each role
checks what it moved (a SHA-256 over every byte each way) and prints one
"ok"/"FAIL" line per check; the exit status is the number of failures.

  sock_py_app.py client HOST PORT N     echo N messages (1 .. 9000 bytes)
                                        through an echo server, then the
                                        socket API's behaviours
  sock_py_app.py server PORT N          accept one association, echo N
                                        messages back
  sock_py_app.py many HOST PORT N       the one-to-many style: N messages echoed
                                        through one SOCK_SEQPACKET socket (the
                                        association set up by the first send),
                                        notifications and control messages, then
                                        the association peeled off
  sock_py_app.py unread HOST PORT       send 29 KB whose echoes it never reads (its
                                        queue past SO_RCVBUF), then exit
  sock_py_app.py refused HOST PORT      connect to a port nobody listens on
  sock_py_app.py nodaemon [ERRNO]       socket() with no daemon reachable fails
                                        with ERRNO (ECONNREFUSED)
  sock_py_app.py gone HOST PORT         connected when the daemon is killed
"""
import errno
import hashlib
import os
import random
import select
import socket
import struct
import sys
import time

SOL_SCTP = 132
SCTP_STATUS = 14
SCTP_ESTABLISHED = 4  # Linux's enum sctp_sstat_state
SCTP_AUTH_KEY = 23    # an option dpsctp does not serve (no SCTP-AUTH)
SCTP_NODELAY = 3
SCTP_INITMSG = 2

failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures += 1


def sctp_socket(family=socket.AF_INET):
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_SCTP)


def echo_run(s, n, seed):
    """Send n messages, read each echo; every byte hashed both ways."""
    rnd = random.Random(seed)
    sent, got = hashlib.sha256(), hashlib.sha256()
    bad = 0
    for i in range(n):
        m = rnd.randbytes(rnd.choice((1, 17, 64, 1000, 1452, 4000, 9000)))
        sent.update(m)
        s.sendall(m)
        r = b""
        while len(r) < len(m):  # one message per recv; a long one may come in parts
            part = s.recv(65536)
            if not part:
                break
            r += part
        bad += r != m
        got.update(r)
    return sent.hexdigest() == got.hexdigest() and bad == 0


def client(host, port, n):
    s = sctp_socket()
    check(s.proto == socket.IPPROTO_SCTP and s.type == socket.SOCK_STREAM,
          "socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP) made, proto %d" % s.proto)
    check(s.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE) == socket.SOCK_STREAM and
          s.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL) == socket.IPPROTO_SCTP,
          "SO_TYPE and SO_PROTOCOL say SOCK_STREAM and SCTP")
    s.setsockopt(SOL_SCTP, SCTP_NODELAY, 1)
    s.setsockopt(SOL_SCTP, SCTP_INITMSG, struct.pack("HHHH", 8, 8, 4, 0))
    try:
        s.setsockopt(SOL_SCTP, SCTP_AUTH_KEY, b"\0" * 8)
        check(False, "an option not served fails")
    except OSError as e:
        check(e.errno == errno.ENOPROTOOPT, "SCTP_AUTH_KEY fails with ENOPROTOOPT (%s)" % e)
    # A non-blocking connect, waited for with select() beside a kernel pipe.
    s.setblocking(False)
    rc = s.connect_ex((host, port))
    check(rc == errno.EINPROGRESS, "non-blocking connect: EINPROGRESS (%d)" % rc)
    r_pipe, w_pipe = os.pipe()
    _, w, _ = select.select([r_pipe], [s], [], 10)
    check(w == [s], "select(): the socket becomes writable once the association is up")
    check(s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0, "SO_ERROR 0")
    os.write(w_pipe, b"x")
    r, _, _ = select.select([r_pipe, s], [], [], 10)
    check(r == [r_pipe], "select() on a mixed set: the pipe readable, the socket not")
    os.close(r_pipe)
    os.close(w_pipe)
    s.setblocking(True)
    check(s.getpeername() == (host, port), "getpeername() %s" % (s.getpeername(),))
    check(s.getsockname()[1] != 0, "getsockname() has our port %s" % (s.getsockname(),))
    st = s.getsockopt(SOL_SCTP, SCTP_STATUS, 176)
    state, = struct.unpack_from("i", st, 4)
    outs, = struct.unpack_from("H", st, 18)
    check(state == SCTP_ESTABLISHED and outs == 8,
          "SCTP_STATUS: ESTABLISHED (%d), the 8 outbound streams INITMSG asked (%d)" %
          (state, outs))
    # Timeouts: nothing to read, SO_RCVTIMEO of 200 ms.
    s.settimeout(0.2)
    t0 = time.monotonic()
    try:
        s.recv(100)
        check(False, "recv with a timeout and nothing to read times out")
    except socket.timeout:
        check(time.monotonic() - t0 >= 0.15, "recv with a 200 ms timeout times out")
    s.settimeout(None)
    check(echo_run(s, n, 1), "%d messages of 1 .. 9000 B echoed, every byte intact" % n)
    # poll() on the socket and on a dup() of it.
    d = socket.socket(fileno=os.dup(s.fileno()))
    d.sendall(b"through the dup")
    p = select.poll()
    p.register(s.fileno(), select.POLLIN)
    ev = p.poll(5000)
    check(ev and ev[0][1] & select.POLLIN, "poll(): POLLIN once the echo waits")
    check(s.recv(100) == b"through the dup", "a dup()'d descriptor sends on the association")
    d.close()
    s.sendall(b"after the dup closed")
    check(s.recv(100) == b"after the dup closed", "closing the dup leaves the socket working")
    # A message larger than a receive's buffer (200,000 B, which the data plane
    # may also hand on in parts): read 64 KiB at a time, MSG_EOR only on the
    # last read, every byte intact.
    big = random.Random(3).randbytes(200000)
    s.sendall(big)
    back, eor, parts = b"", False, 0
    while not eor and len(back) < len(big):
        data, _, flags, _ = s.recvmsg(65536)
        back += data
        parts += 1
        eor = bool(flags & socket.MSG_EOR)
    check(back == big and eor, "a 200,000-byte message echoed intact in %d reads, MSG_EOR on "
          "the last" % parts)
    # Partial reads keep message boundaries: the rest of a message comes next.
    s.sendall(b"A" * 3000)
    a = s.recv(1000)
    b = s.recv(5000)
    check(len(a) == 1000 and len(b) == 2000, "a 3000-byte message read as 1000 + 2000")
    s.close()
    # IPv6 socket to an IPv4 peer, v4-mapped, as Linux allows.
    s6 = sctp_socket(socket.AF_INET6)
    s6.connect(("::ffff:" + host, port))
    s6.sendall(b"v6 socket")
    check(s6.recv(100) == b"v6 socket", "an AF_INET6 socket reaches the IPv4 peer (v4-mapped)")
    s6.close()


def server(port, n):
    ls = sctp_socket(socket.AF_INET6)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("::", port))
    ls.listen(8)
    print("listening", flush=True)
    c, peer = ls.accept()
    check(peer[1] != 0, "accepted from %s" % (peer,))
    moved, sent = hashlib.sha256(), hashlib.sha256()
    count = 0
    while count < n:
        m = c.recv(65536)
        if not m:
            break
        moved.update(m)
        c.sendall(m)
        sent.update(m)
        count += 1
    check(count == n and moved.hexdigest() == sent.hexdigest(),
          "%d messages received and sent back" % count)
    # The peer closes: recv sees the end.
    c.settimeout(20)
    try:
        end = c.recv(100)
    except OSError as e:
        end = e
    check(end == b"", "recv() returns b'' once the peer has shut down (%r)" % (end,))
    c.close()
    ls.close()


SCTP_EVENTS = 11
SCTP_SNDINFO, SCTP_SNDRCV_CMSG = 2, 1  # cmsg types
SCTP_ASSOC_CHANGE = 0x8001
SCTP_COMM_UP = 0
MSG_NOTIFICATION = 0x8000


def many(host, port, n):
    s = socket.socket(socket.AF_INET, socket.SOCK_SEQPACKET, socket.IPPROTO_SCTP)
    # sctp_data_io_event and sctp_association_event (struct sctp_event_subscribe).
    s.setsockopt(SOL_SCTP, SCTP_EVENTS, bytes([1, 1]) + bytes(12))
    rnd = random.Random(2)
    sent, got = hashlib.sha256(), hashlib.sha256()
    notes, meta_ok, aid = [], True, None
    for i in range(n):
        m = rnd.randbytes(rnd.choice((1, 300, 1452, 5000)))
        sent.update(m)
        # struct sctp_sndinfo: sid 3, flags 0, ppid, context 0, assoc 0.
        info = struct.pack("=HHIIi", 3, 0, socket.htonl(0x01020304), 0, 0)
        s.sendmsg([m], [(SOL_SCTP, SCTP_SNDINFO, info)], 0, (host, port))
        while True:
            data, anc, flags, addr = s.recvmsg(65536, 256)
            if flags & MSG_NOTIFICATION:
                typ, _, _, state = struct.unpack_from("=HHIH", data)
                notes.append((typ, state))
                continue
            break
        got.update(data)
        for lvl, typ, val in anc:
            if lvl == SOL_SCTP and typ == SCTP_SNDRCV_CMSG:
                sid, ssn, fl, ppid = struct.unpack_from("=HHHxxI", val)
                aid = struct.unpack_from("=i", val, 28)[0]
                meta_ok &= sid == 3 and ppid == socket.htonl(0x01020304)
        meta_ok &= addr == (host, port) and bool(flags & socket.MSG_EOR)
    check(notes[:1] == [(SCTP_ASSOC_CHANGE, SCTP_COMM_UP)],
          "SCTP_ASSOC_CHANGE COMM_UP before the first message (%s)" % notes[:2])
    check(sent.hexdigest() == got.hexdigest(),
          "%d messages through one SOCK_SEQPACKET socket, every byte echoed" % n)
    check(meta_ok and aid is not None and aid > 0,
          "each echo: SCTP_SNDRCV with stream 3 and the PPID sent, the sender's address, "
          "MSG_EOR, association id %s" % aid)
    # sctp_peeloff() (the library's, before libsctp's): the association as a
    # one-to-one socket of its own.
    import ctypes
    peel = ctypes.CDLL(None).sctp_peeloff
    fd = peel(s.fileno(), aid)
    check(fd >= 0, "sctp_peeloff(%d): a new descriptor %d" % (aid, fd))
    if fd >= 0:
        p = socket.socket(fileno=fd)
        check(p.type == socket.SOCK_STREAM, "the peeled-off socket is one-to-one")
        p.sendall(b"peeled")
        r = p.recv(100)
        while r and len(r) > 100:
            r = p.recv(100)
        # The association's notifications stay subscribed on the new socket.
        check(r == b"peeled", "the peeled-off socket echoes (%r)" % (r,))
        p.close()
    try:
        s.sendmsg([b"x"], [(SOL_SCTP, SCTP_SNDINFO, struct.pack("=HHIIi", 0, 0, 0, 0, aid))])
        check(False, "a send to the peeled-off id fails")
    except OSError as e:
        check(e.errno == errno.EPIPE, "a send naming the peeled-off id: EPIPE (%s)" % e)
    s.close()


def unread(host, port):
    s = sctp_socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, port))
    # 29 KB out (well within SO_SNDBUF: no send waits), whose echoes pass the
    # 8 KB SO_RCVBUF and are never read.
    for _ in range(20):
        s.sendall(bytes(1452))
    time.sleep(1)
    print("exiting", flush=True)
    sys.exit(0)


def refused(host, port):
    s = sctp_socket()
    try:
        s.connect((host, port))
        check(False, "connect to a port nobody listens on fails")
    except OSError as e:
        check(e.errno == errno.ECONNREFUSED, "connect to %d: ECONNREFUSED (%s)" % (port, e))
    s.close()


def nodaemon(want=errno.ECONNREFUSED):
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.close()
    check(True, "a kernel TCP socket is made as always")
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_SCTP)
        check(False, "socket() fails without a daemon")
    except OSError as e:
        check(e.errno == want, "socket() fails: %s" % e)


def gone(host, port):
    s = sctp_socket()
    s.connect((host, port))
    s.sendall(b"before")
    check(s.recv(100) == b"before", "echoed before the daemon goes")
    print("connected", flush=True)
    sys.stdin.readline()  # the harness kills the daemon, then writes a line
    s.settimeout(10)
    try:
        r = s.recv(100)
        out = "recv returned %r" % (r,)
        ok = r == b""
    except OSError as e:
        out, ok = "recv: %s" % e, e.errno == errno.ECONNRESET
    check(ok, "after the daemon died: ECONNRESET or the end, not a hang (%s)" % out)
    try:
        s.send(b"after")
        check(False, "send after the daemon died fails")
    except OSError as e:
        check(e.errno in (errno.EPIPE, errno.ECONNRESET), "send fails: %s" % e)
    s.close()


def main():
    role = sys.argv[1]
    if role == "client":
        client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif role == "server":
        server(int(sys.argv[2]), int(sys.argv[3]))
    elif role == "many":
        many(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif role == "unread":
        unread(sys.argv[2], int(sys.argv[3]))
    elif role == "refused":
        refused(sys.argv[2], int(sys.argv[3]))
    elif role == "nodaemon":
        nodaemon(getattr(errno, sys.argv[2]) if len(sys.argv) > 2 else errno.ECONNREFUSED)
    elif role == "gone":
        gone(sys.argv[2], int(sys.argv[3]))
    print("%d failed" % failures, flush=True)
    sys.exit(min(failures, 100))


if __name__ == "__main__":
    main()
