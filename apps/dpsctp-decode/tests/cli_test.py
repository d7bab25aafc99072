#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dpsctp-decode as a command: options, exit status, output formats.

Runs the binary on captures written here (the synthetic ones of
compare_tshark.py plus a few made for this test) and checks:

  - --help and --version exit 0; bad usage exits 2; a file that cannot be
    read (missing, not a capture, unsupported link type, cut inside a
    record) exits 1, after printing the packets before the damage;
  - a capture full of malformed packets exits 0;
  - every --json line is one valid JSON object with the documented keys,
    and every "error" is a name listed in sctp/parse_err.def or
    drivers/net/frame_err.def;
  - text and JSON show the same packets; - reads standard input;
  - --no-verify gives "checksum": null;
  - peer bytes (an abort reason with quotes, backslashes, control and
    non-ASCII bytes) come out as valid, exactly decodable JSON;
  - frames that are not SCTP are skipped and counted in the summary;
  - a pcapng file (editcap's conversion of a pcap) decodes identically.

Usage: cli_test.py --decode PATH --source REPO_ROOT. Exit 0 when all pass.
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_tshark as cap  # noqa: E402  (the synthetic capture writers)

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what)


def run(decode, *args, stdin=None):
    return subprocess.run([decode] + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False)


def def_names(path, macro):
    with open(path, encoding="utf-8") as f:
        return set(re.findall(macro + r'\(\w+, "(\w+)"', f.read()))


def escape_capture(path):
    """One ABORT whose reason holds every awkward byte, plus an ARP frame."""
    reason = b'say "hi" \\ back\x00slash\x01\x1f\x7f\xc3\xa9\xff end'
    abort = cap.chunk(6, 0, cap.tlv(12, reason))
    frames = [
        (cap.eth(0x0800, cap.ipv4(132, cap.sctp(1, 2, 3, [abort]))), None),
        (cap.eth(0x0806, bytes(28)), None),
    ]
    cap.write_pcap(path, 1, frames)
    return reason.rstrip(b"\0")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decode", required=True)
    ap.add_argument("--source", required=True, help="repository root (for the .def files)")
    args = ap.parse_args()
    d = args.decode

    known_errors = def_names(os.path.join(args.source, "sctp", "parse_err.def"),
                             "SCTP_PARSE_ERR") | \
        def_names(os.path.join(args.source, "drivers", "net", "frame_err.def"), "NET_FRAME_ERR")
    check(len(known_errors) > 20, "error names read from the .def files")

    r = run(d, "--help")
    check(r.returncode == 0 and b"usage:" in r.stdout, "--help exits 0 with usage")
    r = run(d, "--version")
    check(r.returncode == 0 and r.stdout.startswith(b"dpsctp-decode "), "--version exits 0")
    check(run(d).returncode == 2, "no FILE: exit 2")
    check(run(d, "a", "b").returncode == 2, "two FILEs: exit 2")
    check(run(d, "--frobnicate", "x").returncode == 2, "unknown option: exit 2")

    with tempfile.TemporaryDirectory(prefix="dpsctp-decode-cli-") as tmp:
        check(run(d, os.path.join(tmp, "missing.pcap")).returncode == 1, "missing file: exit 1")
        junk = os.path.join(tmp, "junk.pcap")
        with open(junk, "wb") as f:
            f.write(b"this is not a capture file at all")
        check(run(d, junk).returncode == 1, "not a capture: exit 1")
        wifi = os.path.join(tmp, "wifi.pcap")
        cap.write_pcap(wifi, 105, [(bytes(40), None)])
        r = run(d, wifi)
        check(r.returncode == 1 and b"not supported" in r.stderr, "unsupported link: exit 1")

        paths = cap.synthetic_captures(tmp)
        for path in paths:
            name = os.path.basename(path)
            rj = run(d, "--json", path)
            rt = run(d, path)
            check(rj.returncode == 0, "%s: --json exits 0" % name)
            check(rt.returncode == 0, "%s: text exits 0" % name)
            lines = rj.stdout.decode().splitlines()
            frames = []
            for line in lines:
                try:
                    pkt = json.loads(line)
                except ValueError:
                    check(False, "%s: not JSON: %s" % (name, line))
                    continue
                frames.append(pkt["frame"])
                for key in ("frame", "src", "dst", "checksum", "chunks", "error"):
                    check(key in pkt, "%s frame %s: key %s" % (name, pkt.get("frame"), key))
                err = pkt.get("error")
                check(err is None or err in known_errors,
                      "%s frame %s: error %r is a .def name" % (name, pkt["frame"], err))
                for c in pkt.get("chunks", []):
                    for key in ("type", "type_id", "flags", "length"):
                        check(key in c, "%s frame %s: chunk key %s" % (name, pkt["frame"], key))
                    check(c.get("error") is None or c["error"] in known_errors,
                          "%s frame %s: chunk error %r" % (name, pkt["frame"], c.get("error")))
            text_frames = [int(l.split(" ", 1)[0]) for l in rt.stdout.decode().splitlines()]
            check(text_frames == frames, "%s: text and JSON list the same frames" % name)
            check(frames == sorted(set(frames)), "%s: frames in order, once each" % name)
            with open(path, "rb") as f:
                rs = run(d, "--json", "-", stdin=f.read())
            check(rs.returncode == 0 and rs.stdout == rj.stdout, "%s: - reads stdin" % name)
            rn = run(d, "--json", "--no-verify", path)
            check(all(json.loads(l)["checksum"] is None for l in rn.stdout.decode().splitlines()),
                  "%s: --no-verify gives null verdicts" % name)

        # The malformed capture: every packet named, exit 0.
        malformed = os.path.join(tmp, "synthetic-malformed.pcap")
        r = run(d, "--json", malformed)
        pkts = [json.loads(l) for l in r.stdout.decode().splitlines()]
        check(r.returncode == 0, "malformed packets: exit 0")
        check(pkts and all(p["error"] for p in pkts), "malformed packets: each has an error")
        check(b"13 malformed" in r.stderr, "malformed packets counted in the summary")

        # Non-SCTP frames: skipped, counted.
        eth = os.path.join(tmp, "synthetic-ethernet.pcap")
        r = run(d, eth)
        check(re.search(rb"28 packets, 26 SCTP", r.stderr) is not None,
              "summary counts packets and SCTP packets: %r" % r.stderr)

        # A capture cut inside a record: earlier packets printed, then exit 1.
        with open(eth, "rb") as f:
            whole = f.read()
        cut = os.path.join(tmp, "cut.pcap")
        with open(cut, "wb") as f:
            f.write(whole[:400])
        r = run(d, "--json", cut)
        check(r.returncode == 1, "capture cut inside a record: exit 1")
        check(len(r.stdout.splitlines()) >= 1, "capture cut inside a record: earlier packets shown")

        # pcapng: the same capture converted by editcap decodes identically.
        editcap = shutil.which("editcap")
        check(editcap is not None, "editcap (wireshark-common, installed with tshark) found")
        if editcap:
            ng = os.path.join(tmp, "ethernet.pcapng")
            subprocess.run([editcap, "-F", "pcapng", eth, ng], check=True)
            with open(ng, "rb") as f:
                check(f.read(4) == b"\x0a\x0d\x0d\x0a", "editcap wrote a pcapng section header")
            check(run(d, "--json", ng).stdout == run(d, "--json", eth).stdout,
                  "pcapng and pcap of the same packets decode identically")

        # Escaping of peer bytes.
        esc = os.path.join(tmp, "escape.pcap")
        reason = escape_capture(esc)
        r = run(d, "--json", esc)
        lines = r.stdout.decode("utf-8").splitlines()
        check(len(lines) == 1, "escape capture: one SCTP packet")
        if lines:
            pkt = json.loads(lines[0])
            got = pkt["chunks"][0]["causes"][0]["reason"]
            check(got.encode("latin-1") == reason, "reason round-trips: %r" % got)
        rt = run(d, esc)
        check(rt.returncode == 0 and b'reason="say \\"hi\\" \\\\ back' in rt.stdout,
              "text escapes quotes and backslashes: %r" % rt.stdout)

    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
