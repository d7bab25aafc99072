#!/usr/bin/env python3
"""[dp] dpsctp-perf --sidecar: one end through dpsctpd, the other embedded.

dpsctpd owns one end of a net_memif link (memif server role, 10.0.0.1); an
embedded dpsctp-perf owns the other (memif client role, 10.0.0.2, a fixed
MAC so that a restarted peer is the same neighbour). Behaviour only, never
speed:

  forward  dpsctp-perf --sidecar -c (bulk: -P 2 -S 4; then --ping) against
           the embedded -s: every message the sidecar client sent was
           received, no order errors on either end, the JSON keys present
           ("mode": "sidecar" / "embedded", latency quantiles for --ping)
  pr-sctp  dpsctp-perf --sidecar -c --pr-policy ttl --pr-value 1 against an
           embedded -s -1 that loses 5 % of what it receives (--impair-rx):
           PR-SCTP negotiated through dpsctpd (COMM_UP's extensions), messages
           abandoned (SEND_FAILED with the policy, so dpsctpd handed the
           policy to the data plane), the run completes, the server got no
           more than was sent and nothing out of order beyond the gaps
  resets   dpsctp-perf --sidecar -c -S 4 --reset-every 20 (RFC 6525 stream
           resets through dpsctpd's client library) against an embedded -s -1:
           resets performed, none denied or refused, as many seen by the
           server, every message received in order on its stream
  reverse  the embedded -c against dpsctp-perf --sidecar -s -1: the same, the
           client resetting its streams (--reset-every 20) and the sidecar
           server counting the resets it was told of
  usage    options that need an instance of our own exit 2; no daemon, 3

Every process is stopped and every file removed, whatever happens. Skipped
(77) without root or without dpsctpd.

usage: perf_sidecar_test.py PATH/TO/dpsctp-perf PATH/TO/dpsctpd
"""
import json
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path
import time
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.prereq import cannot_run  # noqa: E402

EAL = ["-l", "0", "--no-huge", "--no-pci", "-m", "512", "--log-level", "lib.eal:error"]
DAEMON_IP, PEER_IP = "10.0.0.1", "10.0.0.2"
PEER_MAC = "02:00:00:00:00:02"
KEYS = [
    "start.mode", "start.tsc_hz", "end.sum_sent.bytes", "end.sum_sent.messages",
    "end.sum_received.bytes", "end.sum_received.messages",
    "end.sum_received.bits_per_second", "end.sum_received.messages_per_second",
    "end.sum_received.packets_per_second", "end.cycles_per_message.sender",
    "end.cycles_per_message.receiver", "end.cycles_per_byte.sender", "end.idle_fraction.sender",
    "end.retransmits", "end.errors",
]
failures = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(name)


def get(doc, dotted):
    for k in dotted.split("."):
        if not isinstance(doc, dict) or k not in doc:
            raise KeyError(dotted)
        doc = doc[k]
    return doc


def documents(text):
    """The JSON documents printed one after another (a server prints one a test)."""
    dec, docs, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)


def keys_present(name, doc, mode):
    missing = []
    for k in KEYS:
        try:
            get(doc, k)
        except KeyError:
            missing.append(k)
    check(f"{name}: JSON keys", not missing, ", ".join(missing))
    check(f"{name}: mode {mode}", doc.get("start", {}).get("mode") == mode,
          doc.get("start", {}).get("mode"))


def agree(name, sender, receiver):
    """The sender's (acknowledged) messages all arrived, in order, at the receiver."""
    try:
        sent, recv = get(sender, "end.sum_sent.messages"), get(receiver, "end.sum_received.messages")
        check(f"{name}: messages sent > 0", sent > 0, sent)
        check(f"{name}: the receiver got every message sent", sent == recv, f"{sent} != {recv}")
        check(f"{name}: bytes agree", get(sender, "end.sum_sent.bytes") ==
              get(receiver, "end.sum_received.bytes"))
        check(f"{name}: no order errors", get(sender, "end.errors") == 0 and
              get(receiver, "end.errors") == 0,
              f"{get(sender, 'end.errors')} / {get(receiver, 'end.errors')}")
    except KeyError as e:
        check(f"{name}: JSON", False, f"no {e}")


class Rig:
    """dpsctpd, the embedded peer, the sidecar ends; stop() undoes everything."""

    def __init__(self, perf, daemon):
        self.perf, self.daemon = perf, daemon
        self.tag = f"dpsc{os.getpid()}"
        self.memif = f"/tmp/{self.tag}.memif"
        self.sock = f"/tmp/{self.tag}.sock"
        self.prefixes = []
        self.procs = []

    def port(self, role):
        mac = f",mac={PEER_MAC}" if role == "client" else ""
        return f"net_memif0,socket={self.memif},socket-abstract=no,id=0,role={role}{mac}"

    def popen(self, argv):
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        return p

    def listening(self, p, timeout=30):
        """Wait for a server's "listening" line on its stderr (kept for
        finish()): a client started before it would have its INIT answered
        with an ABORT (RFC 9260 section 8.4)."""
        p.early_err, end, fd = "", time.time() + timeout, p.stderr.fileno()
        while time.time() < end and p.poll() is None:
            # The descriptor itself, not the text wrapper: no line is left
            # in a buffer that select() cannot see; communicate() reads on.
            if select.select([fd], [], [], 0.1)[0]:
                p.early_err += os.read(fd, 4096).decode(errors="replace")
                if "listening on SCTP port" in p.early_err:
                    time.sleep(0.2)  # its port's first polls
                    return True
        check("the server listens", False, p.early_err[-2000:])
        return False

    def start_daemon(self):
        prefix = f"{self.tag}d"
        self.prefixes.append(prefix)
        d = self.popen([self.daemon, *EAL, f"--file-prefix={prefix}", "--", "--port",
                        self.port("server"), "--ip", DAEMON_IP + "/24", "--socket", self.sock,
                        "--idle-sleep-us", "20"])
        for _ in range(200):
            if os.path.exists(self.sock) or d.poll() is not None:
                break
            time.sleep(0.05)
        return os.path.exists(self.sock)

    def embedded(self, n, args):
        prefix = f"{self.tag}p{n}"
        self.prefixes.append(prefix)
        return [self.perf, *EAL, f"--file-prefix={prefix}", "--", "--port", self.port("client"),
                "--ip", PEER_IP + "/24", *args]

    def sidecar(self, args):
        return [self.perf, "--sidecar", self.sock, *args]

    def run(self, argv, timeout=40):
        p = self.popen(argv)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        print("$ " + " ".join(argv) + f"  -> {p.returncode}")
        if p.returncode != 0:
            print(out[-2000:], err[-2000:])
        return p.returncode, out, err

    def finish(self, p, sig=signal.SIGINT, timeout=20, grace=0):
        # A -1 server ends by itself once its association has: wait for that
        # (grace) before the signal, which would stop it before its report.
        if grace:
            try:
                p.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        if p.poll() is None:
            p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        return p.returncode, out, getattr(p, "early_err", "") + err

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
        for f in (self.memif, self.sock):
            if os.path.exists(f):
                os.unlink(f)
        for prefix in self.prefixes:
            shutil.rmtree(f"/var/run/dpdk/{prefix}", ignore_errors=True)


def forward(rig):
    """The sidecar client against the embedded server."""
    peer = rig.popen(rig.embedded(0, ["-s", "--json"]))
    rig.listening(peer)
    rc, out, _ = rig.run(rig.sidecar(["-c", PEER_IP, "-t", "1", "-l", "700", "-S", "4", "-P", "2",
                                      "-i", "0.5", "--json"]))
    check("forward bulk: sidecar client exit 0", rc == 0, rc)
    bulk = json.loads(out) if rc == 0 else None
    rc, out, _ = rig.run(rig.sidecar(["-c", PEER_IP, "-t", "1", "-l", "700", "--ping",
                                      "--ping-length", "64", "--json"]))
    check("forward ping: sidecar client exit 0", rc == 0, rc)
    ping = json.loads(out) if rc == 0 else None
    prc, pout, perr = rig.finish(peer)
    check("forward: the embedded server stops on SIGINT with 0", prc == 0, perr[-2000:])
    docs = documents(pout)
    check("forward: the embedded server reported two tests", len(docs) == 2, len(docs))
    if bulk is None or len(docs) != 2:
        return
    keys_present("forward bulk (sidecar client)", bulk, "sidecar")
    keys_present("forward bulk (embedded server)", docs[0], "embedded")
    agree("forward bulk", bulk, docs[0])
    check("forward bulk: acknowledged only", get(bulk, "end.sum_received.acknowledged_only") is True)
    check("forward bulk: intervals kept", len(bulk.get("intervals", [])) >= 1)
    check("forward bulk: cycles per message measured", get(bulk, "end.cycles_per_message.sender") > 0)
    check("forward bulk: dpsctpd's scheduler, asked through the client library",
          get(bulk, "end.sched") == "rr" and get(docs[0], "end.sched") == "rr",
          f"{get(bulk, 'end.sched')} {get(docs[0], 'end.sched')}")
    if ping is not None:
        agree("forward ping", ping, docs[1])
        lat = ping["end"].get("latency_us", {})
        check("forward ping: latency quantiles", all(k in lat for k in ("p50", "p99", "p999", "max"))
              and lat["samples"] == get(ping, "end.sum_sent.messages")
              and 0 < lat["p50"] <= lat["p99"] <= lat["max"] * 1.04, lat)
        check("forward ping: --ping-length 64 beside -l 700",
              get(ping, "start.test.ping_bytes") == 64 and
              get(ping, "end.sum_sent.bytes") == 64 * get(ping, "end.sum_sent.messages"),
              get(ping, "end.sum_sent"))


def forward_pr(rig):
    """PR-SCTP through dpsctpd: a 1 ms lifetime on a lossy link abandons messages."""
    peer = rig.popen(rig.embedded(2, ["-s", "-1", "--json", "--impair-rx", "loss=5%,seed=7"]))
    rig.listening(peer)
    rc, out, err = rig.run(rig.sidecar(["-c", PEER_IP, "-t", "1", "-l", "1000", "--pr-policy",
                                        "ttl", "--pr-value", "1", "--json"]))
    check("pr-sctp: sidecar client exit 0 (the run completes)", rc == 0, err[-2000:])
    prc, pout, perr = rig.finish(peer, timeout=20, grace=10)
    check("pr-sctp: the embedded server -1 exits 0", prc == 0, perr[-2000:])
    try:
        c, s = json.loads(out), json.loads(pout)
        pr = get(c, "end.pr_sctp")
        sent, recv = get(c, "end.sum_sent.messages"), get(s, "end.sum_received.messages")
        check("pr-sctp: negotiated through dpsctpd",
              "pr-sctp" in get(c, "end.extensions").split(","),
              get(c, "end.extensions"))
        check("pr-sctp: the policy in the report", get(c, "start.test.pr_policy") == "ttl" and
              pr["policy"] == "ttl" and pr["value"] == 1, pr)
        check("pr-sctp: messages abandoned (SEND_FAILED with the policy)",
              pr["abandoned_messages"] > 0 and pr["abandoned_bytes"] > 0, pr)
        check("pr-sctp: the server got no more than was sent, and the rest was abandoned",
              0 < recv <= sent <= recv + pr["abandoned_messages"],
              f"sent {sent}, received {recv}, abandoned {pr['abandoned_messages']}")
        check("pr-sctp: the client counts the abandoned out of what arrived",
              get(c, "end.sum_received.messages") == sent - pr["abandoned_messages"])
        check("pr-sctp: gaps, not order errors, at the server",
              get(s, "end.errors") == 0 and get(s, "end.pr_sctp.receiver_skipped") > 0,
              f"errors {get(s, 'end.errors')}, skipped {get(s, 'end.pr_sctp.receiver_skipped')}")
        check("pr-sctp: no FORWARD TSN count through dpsctpd (its counters)",
              pr["forward_tsn_sent"] is None, pr)
    except (ValueError, KeyError) as e:
        check("pr-sctp: JSON", False, repr(e))


def forward_resets(rig):
    """Stream resets asked through dpsctpd while data flows on the other streams."""
    peer = rig.popen(rig.embedded(3, ["-s", "-1", "--json"]))
    rig.listening(peer)
    rc, out, err = rig.run(rig.sidecar(["-c", PEER_IP, "-t", "1", "-l", "700", "-S", "4",
                                        "--reset-every", "20", "--json"]))
    check("resets: sidecar client exit 0", rc == 0, err[-2000:])
    prc, pout, perr = rig.finish(peer, timeout=20, grace=10)
    check("resets: the embedded server -1 exits 0", prc == 0, perr[-2000:])
    try:
        c, s = json.loads(out), json.loads(pout)
        r = get(c, "end.stream_resets")
        check("resets: negotiated through dpsctpd",
              "reconfig" in get(c, "end.extensions").split(","), get(c, "end.extensions"))
        check("resets: performed through the client library, none denied or refused",
              r["performed"] >= 5 and r["denied"] == 0 and r["refused"] == 0, r)
        check("resets: as many seen by the server",
              get(s, "end.stream_resets.receiver_saw") == r["performed"],
              f"{get(s, 'end.stream_resets')} {r}")
        agree("resets", c, s)
    except (ValueError, KeyError, TypeError) as e:
        check("resets: JSON", False, repr(e))


def reverse(rig):
    """The embedded client against the sidecar server (-1)."""
    srv = rig.popen(rig.sidecar(["-s", "-1", "--json"]))
    rig.listening(srv)
    rc, out, err = rig.run(rig.embedded(1, ["-c", DAEMON_IP, "-t", "1", "-l", "1452", "-S", "4",
                                            "--reset-every", "20", "--json"]))
    check("reverse: embedded client exit 0", rc == 0, err[-2000:])
    src, sout, serr = rig.finish(srv, timeout=20, grace=10)
    check("reverse: sidecar server -1 exits 0 after the association", src == 0, serr[-2000:])
    try:
        c, s = json.loads(out), json.loads(sout)
    except ValueError as e:
        check("reverse: JSON", False, f"{e}: client {out[:300]!r}, server {sout[:300]!r}")
        return
    keys_present("reverse (sidecar server)", s, "sidecar")
    agree("reverse", c, s)
    check("reverse: receiver cycles per message measured",
          get(s, "end.cycles_per_message.receiver") > 0)
    r = get(c, "end.stream_resets")
    check("reverse: the client's resets performed, all seen by the sidecar server",
          r["performed"] >= 5 and r["refused"] == 0 and
          get(s, "end.stream_resets.receiver_saw") == r["performed"],
          f"{r} {s['end'].get('stream_resets')}")


def usage(perf):
    """Bad usage exits 2 and no daemon exits 3: no root, no DPDK needed."""
    for bad in (["--loopback"], ["-c", "10.0.0.2", "--rate", "1g"], ["-s", "--memory"],
                ["-c", "10.0.0.2", "--handshakes", "10"], ["-s", "--stats"], ["-s", "--stages"],
                ["-s", "--port", "net_ring0"], ["-c", "10.0.0.2,10.0.0.3,10.0.0.4,10.0.0.5,10.0.0.6"],
                ["-c", "10.0.0.2", "--extensions", "none"],
                ["-c", "10.0.0.2", "--pr-policy", "ttl"]):
        p = subprocess.run([perf, "--sidecar", "/nonexistent/dpsctpd.sock", *bad],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        check(f"usage --sidecar {' '.join(bad)}: exit 2 with a message",
              p.returncode == 2 and p.stderr.strip() != "", f"{p.returncode} {p.stderr}")
    p = subprocess.run([perf, "-l", "0", "--", "--sidecar", "/nonexistent/dpsctpd.sock", "-s"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    check("usage: EAL arguments with --sidecar: exit 2", p.returncode == 2, p.returncode)
    p = subprocess.run([perf, "--sidecar", "/nonexistent/dpsctpd.sock", "-s"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    check("no dpsctpd: exit 3", p.returncode == 3, f"{p.returncode} {p.stderr}")


def main():
    perf, daemon = sys.argv[1], sys.argv[2]
    usage(perf)
    if failures:
        print(f"{len(failures)} failures: " + ", ".join(failures))
        return 1
    if os.geteuid() != 0:
        return cannot_run("needs root (DPDK, memif)")
    if not os.access(daemon, os.X_OK):
        return cannot_run(f"no dpsctpd at {daemon}")
    rig = Rig(perf, daemon)
    try:
        if not rig.start_daemon():
            check("dpsctpd starts", False)
        else:
            forward(rig)
            forward_pr(rig)
            forward_resets(rig)
            reverse(rig)
    except (ValueError, KeyError, subprocess.SubprocessError) as e:
        check("run", False, repr(e))
    finally:
        rig.stop()
    print(f"{len(failures)} failures" + (": " + ", ".join(failures) if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
