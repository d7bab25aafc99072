#!/usr/bin/env python3
"""Run one fuzz target for the fuzz suite.

Seeds are the SCTP packets found in the capture corpus (classic pcap files
with Ethernet, VLAN or Linux cooked framing, IPv4 or IPv6, SCTP directly or
over UDP port 9899), written to a temporary directory, plus the target's kept
regression inputs (--regress: regress/<target>/ beside the target, e.g.
sctp/fuzz/regress/fuzz_packet/). tools/fuzz/campaign.py (./dev.sh fuzz)
reads the same arguments from each target's test and calls extract_seeds(). With --seed-format l3 a seed is whole frames of every kind
(ARP, ND, ICMP, fragments too), in fuzz_l3.c's format.

  run_fuzz.py --libfuzzer EXE ...   libFuzzer for --seconds under ASan+UBSan;
                                    a crash is copied into the regression
                                    directory (commit it) and the test fails.
  run_fuzz.py --replay EXE ...      a plain build: replay seeds + regressions.

Both also read the corpus that ./dev.sh fuzz's campaigns kept for the target,
tests/fuzz_campaign/<target>/corpus/ (the target's name is its regression
directory's), when there is one: the short run starts where the campaigns
stopped, and the plain build replays every input they found interesting.
"""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SCTP = 132
UDP = 17
UDP_ENCAP_PORT = 9899


def sctp_from_ip(b):
    """SCTP packet bytes inside an IPv4/IPv6 packet, or None."""
    if len(b) < 1:
        return None
    version = b[0] >> 4
    if version == 4 and len(b) >= 20:
        ihl = (b[0] & 15) * 4
        total = struct.unpack("!H", b[2:4])[0]
        proto = b[9]
        frag = struct.unpack("!H", b[6:8])[0] & 0x3FFF
        if frag:
            return None
        payload = b[ihl:total]
    elif version == 6 and len(b) >= 40:
        proto = b[6]
        plen = struct.unpack("!H", b[4:6])[0]
        payload = b[40:40 + plen]
        while proto in (0, 43, 60) and len(payload) >= 8:
            proto, hlen = payload[0], (payload[1] + 1) * 8
            payload = payload[hlen:]
    else:
        return None
    if proto == SCTP:
        return payload
    if proto == UDP and len(payload) >= 8:
        sport, dport = struct.unpack("!HH", payload[:4])
        if UDP_ENCAP_PORT in (sport, dport):
            return payload[8:]
    return None


def frames(path):
    """(linktype, frame bytes) of a classic pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        return  # pcapng and others: not used by the seed corpus
    linktype = struct.unpack(endian + "I", data[20:24])[0] & 0xFFFF
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        yield linktype, data[off + 16:off + 16 + incl]
        off += 16 + incl


def l3(linktype, frame):
    if linktype == 1:  # Ethernet
        off, etype = 14, struct.unpack("!H", frame[12:14])[0] if len(frame) >= 14 else 0
        while etype in (0x8100, 0x88A8) and len(frame) >= off + 4:
            etype = struct.unpack("!H", frame[off + 2:off + 4])[0]
            off += 4
        return frame[off:] if etype in (0x0800, 0x86DD) else None
    if linktype == 113:  # Linux cooked v1
        return frame[16:] if len(frame) >= 16 else None
    if linktype in (12, 101, 228, 229):  # raw IP
        return frame
    return None


def framed(sctp, start):
    """A seed for targets that take a start byte and length-prefixed packets
    (fuzz_assoc.c): one packet, then a 1 ms clock step."""
    return bytes([start]) + struct.pack("!H", len(sctp)) + sctp + b"\x01"


L3_MAC = bytes.fromhex("020000000001")
L3_V4 = bytes([10, 0, 0, 1])
L3_V6 = bytes.fromhex("20010db8000000000000000000000001")


def ethernet(linktype, frame):
    """The frame as Ethernet (raw IP and Linux cooked get a header to L3_MAC), or None."""
    if linktype == 1:
        return frame if len(frame) >= 14 else None
    ip = l3(linktype, frame)
    if not ip:
        return None
    etype = b"\x86\xdd" if ip[0] >> 4 == 6 else b"\x08\x00"
    return L3_MAC + bytes.fromhex("020000000002") + etype + ip


def l3_identity(eth):
    """fuzz_l3.c's header for a frame: we are its destination (MAC and IP)."""
    mac, v4, v6 = eth[0:6], L3_V4, L3_V6
    ip = l3(1, eth)
    if ip and ip[0] >> 4 == 4 and len(ip) >= 20:
        v4 = ip[16:20]
    elif ip and ip[0] >> 4 == 6 and len(ip) >= 40:
        v6 = ip[24:40]
    if mac[0] & 1:  # a broadcast or multicast frame (ARP, ND): keep a unicast MAC
        mac = L3_MAC
    return mac + v4 + v6 + bytes([1])


def l3_record(op, body):
    return bytes([op]) + struct.pack("!H", len(body)) + body


def l3_seeds(path):
    """fuzz_l3.c seeds of one capture: each frame alone, then the capture's
    first 64 frames in order with a millisecond between them (fragments,
    resolutions), addressed as its first frame is."""
    eths = [e for e in (ethernet(lt, f) for lt, f in frames(path)) if e]
    seeds = [l3_identity(e) + l3_record(0, e) for e in eths]
    if len(eths) > 1:
        seq = b"".join(l3_record(0, e) + l3_record(2, struct.pack("!I", 1000))
                       for e in eths[:32])
        seeds.append(l3_identity(eths[0]) + seq)
    return seeds


def extract_seeds(corpus_dir, out_dir, seed_format="raw"):
    n = 0
    if seed_format == "files":  # the seeds themselves, kept in the repository
        for path in sorted(glob.glob(os.path.join(corpus_dir, "*"))):
            if os.path.isfile(path):
                shutil.copy(path, os.path.join(out_dir, f"seed-{n:05d}"))
                n += 1
        return n
    if seed_format == "l3":
        for path in sorted(glob.glob(os.path.join(corpus_dir, "*.*"))):
            for seed in l3_seeds(path):
                with open(os.path.join(out_dir, f"seed-{n:05d}"), "wb") as f:
                    f.write(seed)
                n += 1
        return n
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*.*"))):
        for linktype, frame in frames(path):
            ip = l3(linktype, frame)
            sctp = sctp_from_ip(ip) if ip else None
            if not sctp:
                continue
            # framed: every packet from a client in COOKIE-WAIT (0), from
            # an ESTABLISHED server (4), from one that negotiated I-DATA
            # (4 + 64), and from one with a RE-CONFIG request out (4 + 128).
            seeds = [sctp] if seed_format == "raw" else [framed(sctp, 0), framed(sctp, 4),
                                                         framed(sctp, 68), framed(sctp, 132)]
            for seed in seeds:
                with open(os.path.join(out_dir, f"seed-{n:05d}"), "wb") as f:
                    f.write(seed)
                n += 1
    return n


def campaign_corpus(regress):
    """The campaign's kept corpus for the target whose regression directory is
    `regress`, or None (tools/fuzz/campaign.py keeps it; this file is
    sctp/fuzz/run_fuzz.py in the source tree)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    d = os.path.join(root, "tests", "fuzz_campaign", os.path.basename(os.path.normpath(regress)),
                     "corpus")
    return d if os.path.isdir(d) and os.listdir(d) else None


def main():
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--libfuzzer", metavar="EXE")
    mode.add_argument("--replay", metavar="EXE")
    ap.add_argument("--corpus", required=True, help="directory of captures for seeds")
    ap.add_argument("--regress", required=True, help="kept regression inputs")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--seed-format", choices=["raw", "framed", "l3", "files"], default="raw",
                    help="raw: each seed one SCTP packet; framed: see fuzz_assoc.c; "
                    "l3: link-layer frames, see drivers/net/fuzz/fuzz_l3.c; "
                    "files: --corpus holds the seeds themselves")
    args = ap.parse_args()
    # FUZZ_SECONDS in the environment wins, so a longer run needs no reconfigure.
    args.seconds = int(os.environ.get("FUZZ_SECONDS", args.seconds))

    with tempfile.TemporaryDirectory(prefix="dpsctp-fuzz-") as tmp:
        seeds = os.path.join(tmp, "seeds")
        os.mkdir(seeds)
        # The corpus is in the repository (tests/corpus/pcap): a run without
        # its seeds would pass while testing little, so it fails instead.
        if not os.path.isdir(args.corpus):
            print(f"FAIL: no corpus directory {args.corpus}")
            return 1
        n = extract_seeds(args.corpus, seeds, args.seed_format)
        print(f"{n} seed packets from {args.corpus}")
        if n == 0:
            print(f"FAIL: no SCTP packets in {args.corpus}")
            return 1
        # A target with no finding kept yet has no directory in the repository.
        os.makedirs(args.regress, exist_ok=True)
        kept_corpus = campaign_corpus(args.regress)
        extra = [kept_corpus] if kept_corpus else []
        if kept_corpus:
            print(f"and the campaign's corpus {kept_corpus}")
        if args.replay:
            return subprocess.call([args.replay, seeds, args.regress] + extra)

        artifacts = os.path.join(tmp, "artifacts") + "/"
        os.mkdir(artifacts)
        cmd = [args.libfuzzer, f"-max_total_time={args.seconds}", "-timeout=10",
               "-rss_limit_mb=2048", "-print_final_stats=1",
               f"-artifact_prefix={artifacts}", seeds, args.regress] + extra
        print(" ".join(cmd), flush=True)
        env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
                   ASAN_OPTIONS="detect_leaks=1:abort_on_error=0")
        rc = subprocess.call(cmd, env=env)
        kept = []
        for name in os.listdir(artifacts):
            dst = os.path.join(args.regress, name)
            shutil.copy(os.path.join(artifacts, name), dst)
            kept.append(dst)
        if kept:
            print("fuzz: kept as regression inputs (commit them):", *kept, sep="\n  ")
        if rc != 0 or kept:
            print(f"fuzz: FAILED (exit {rc})")
            return 1
        print("fuzz: no crash")
        return 0


if __name__ == "__main__":
    sys.exit(main())
