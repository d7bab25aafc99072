#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The soak: a long run that must lose nothing (docs/TESTING.md, "Soak").

Sidecar part: dpsctpd --loopback-peer echo with 1 % loss, 1 % duplication
and 1 % reordering on both directions of its port (--impair, --impair-rx);
several dd_soak applications (apps/dpsctpd/tests/dd_soak.c) open, use,
shut down and abort associations without end, each writing a ledger line
per message. Every few seconds one of them is killed with SIGKILL and a
new one started; once, a third of the way in, the daemon itself is killed
with SIGKILL and started again, and the applications attach again.

Embedded part, at the same time: dpsctp-echo --loopback (every echo
checked: sequence and CRC32c; one run in three ends in the client's ABORT
with messages in flight, --abort-after) and dpsctp-perf --loopback (every
message counted, order checked per stream) over the same impairments, one
association or several per run, run after run.

Accounting (from the ledgers): every message sent is delivered exactly
once (its echo, checked byte for byte, on its stream, in order on an
ordered one) or reported failed to its sender (a failed send's completion,
SEND_FAILED, the end of its association, the daemon's loss). A message of
a killed application whose ledger ends before its fate is counted as
"unresolved_killed", and only there: that application could not learn it.
Leaks: after the last application leaves, the restarted daemon's
/dpsctpd/stats (applications, associations, held events, heap and region
bytes, mbufs in use) and /dpsctp/stats (associations, data heap blocks)
and its open descriptors are back to the first daemon's baseline (same
configuration, measured after a warm-up, before the applications came).
RSS is sampled every 2 s (curve written as CSV), split into the
applications' shared regions (pages they touch, gone when they go; checked
by region_bytes) and the rest, the daemon's own (its heap, DPDK's memory,
libraries). Flat means: no sample of the daemon's own above the baseline's
plus what telemetry says the applications hold then (heap_bytes, touched
as they use it) plus --rss-slack-kib; back within --rss-slack-kib of the
baseline once they have gone; and, when the restarted daemon's second half
spans 5 minutes or more, a least-squares slope there below
--rss-slope-kib KiB/min (a 2-minute run is all warm-up there: the slope is
reported, and the bound is what catches a leak, of about 1 MiB/min in 2
minutes, 70 KiB/min in 30).

Output: one JSON summary (stdout and OUT/summary.json); exit 1 on any
violation, 0 otherwise.

usage: soak.py --build BUILD [--minutes M] [--out DIR] [--clients N] [--rate R]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.prereq import cannot_run  # noqa: E402

IMPAIR = "loss=1%,dup=1%,reorder=1%"
EAL = ["-l", "0", "--no-huge", "--no-pci", "-m", "512", "--log-level", "lib.eal:error"]
# What must be back to its baseline once every application has gone.
DD_KEYS = ("apps", "assocs", "held", "heap_bytes", "region_bytes", "mbufs_in_use")
DP_KEYS = ("associations", "data_heap_blocks", "data_heap_bytes")


def telemetry(path, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    s.connect(path)
    s.recv(16384)
    s.send(cmd.encode())
    buf = b""
    while True:
        buf += s.recv(1 << 20)
        try:
            d = json.loads(buf)
            break
        except ValueError:
            continue
    s.close()
    return d[cmd]


class Daemon:
    """One dpsctpd incarnation; its output in a file."""

    def __init__(self, args, n, seed):
        self.n, self.prefix = n, f"soak{os.getpid()}d{n}"
        self.log = os.path.join(args.out, f"dpsctpd-{n}.log")
        self.telemetry = f"/var/run/dpdk/{self.prefix}/dpdk_telemetry.v2"
        argv = [os.path.join(args.build, "apps/dpsctpd/dpsctpd"), *EAL,
                f"--file-prefix={self.prefix}", "--", "--loopback-peer", "echo",
                "--socket", args.sock, "--idle-sleep-us", "50",
                "--impair", f"{IMPAIR},seed={seed}", "--impair-rx", f"{IMPAIR},seed={seed + 1}"]
        self.f = open(self.log, "w")
        self.p = subprocess.Popen(argv, stdout=self.f, stderr=subprocess.STDOUT)
        end = time.time() + 30
        while time.time() < end:
            if "dpsctpd: serving" in Path(self.log).read_text():
                return
            if self.p.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("dpsctpd did not start:\n" + Path(self.log).read_text())

    def stats(self):
        # Descriptors first: the telemetry thread closes its side of our
        # last connection a moment after we close ours.
        fds = len(os.listdir(f"/proc/{self.p.pid}/fd"))
        dd = telemetry(self.telemetry, "/dpsctpd/stats")
        dp = telemetry(self.telemetry, "/dpsctp/stats")
        st = {k: dd.get(k) for k in DD_KEYS}
        st.update({"dp_" + k: dp.get(k) for k in DP_KEYS})
        st["fds"] = fds
        return st

    def rss_kib(self):
        """(resident KiB, of which applications' regions): the regions are
        the applications' shared memory, whose pages come and go with them
        (region_bytes checks those); the rest is the daemon's own."""
        total = region = 0
        name = ""
        with open(f"/proc/{self.p.pid}/smaps") as f:
            for ln in f:
                w = ln.split()
                if re.match(r"^[0-9a-f]+-[0-9a-f]+$", w[0]):
                    name = " ".join(w[5:])
                elif w[0] == "Rss:":
                    total += int(w[1])
                    if "memfd:dpsctpd-app" in name:
                        region += int(w[1])
        return total, region


class Ledger:
    """Reads one application's ledger: what happened to each of its messages."""

    def __init__(self):
        self.t = {"sent": 0, "delivered": 0, "failed": 0, "unresolved_killed": 0,
                  "unresolved_clean": 0, "violations": 0}
        self.reasons, self.assoc, self.viol = {}, {}, []
        self.resets = 0

    def read(self, path, cid, killed):
        out, clean = set(), False
        with open(path) as f:
            for ln in f:
                w = ln.split()
                if not w:
                    continue
                k = w[0]
                if k == "S":
                    key = (w[1], w[2])
                    if key in out:
                        self.bad(cid, ln, "sent twice")
                    out.add(key)
                    self.t["sent"] += 1
                elif k in "DF":
                    key = (w[1], w[2])
                    if key not in out:
                        self.bad(cid, ln, "a fate for a message not outstanding (twice?)")
                        continue
                    out.discard(key)
                    if k == "D":
                        self.t["delivered"] += 1
                    else:
                        self.t["failed"] += 1
                        self.reasons[w[3]] = self.reasons.get(w[3], 0) + 1
                elif k == "V":
                    self.bad(cid, ln, "reported by the application")
                elif k == "A":
                    self.assoc[w[2]] = self.assoc.get(w[2], 0) + 1
                elif k == "R":
                    self.resets += 1
                elif k == "E":
                    clean = True
        if killed:
            self.t["unresolved_killed"] += len(out)
        elif out:
            self.t["unresolved_clean"] += len(out)
            self.bad(cid, "%d messages" % len(out), "no fate at a clean end")
        return clean

    def bad(self, cid, ln, what):
        self.t["violations"] += 1
        if len(self.viol) < 50:
            self.viol.append(f"client {cid}: {what}: {ln.strip()}")


class Clients:
    def __init__(self, args, ledger):
        self.args, self.ledger, self.next_id = args, ledger, 1
        self.live = {}  # id -> (Popen, ledger path)
        self.starts = self.kills = self.clean_exits = 0
        self.problems = []

    def start(self):
        cid, self.next_id = self.next_id, self.next_id + 1
        path = os.path.join(self.args.out, f"ledger-{cid}.txt")
        p = subprocess.Popen([os.path.join(self.args.build, "apps/dpsctpd/dd_soak"),
                              self.args.sock, path, str(cid), str(random.getrandbits(32)),
                              str(self.args.rate)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.live[cid] = (p, path)
        self.starts += 1

    def account(self, cid, p, path, killed):
        clean = self.ledger.read(path, cid, killed)
        if not killed:
            out = p.stdout.read()
            if p.returncode != 0 or not clean:
                self.problems.append(f"client {cid} exit {p.returncode}, clean end {clean}: "
                                     f"{out.strip()[-500:]}")
            else:
                self.clean_exits += 1
        if self.ledger.t["violations"] == 0:
            os.unlink(path)  # kept only when it shows a violation

    def kill_one(self):
        cid = random.choice(list(self.live))
        p, path = self.live.pop(cid)
        p.kill()
        p.wait()
        p.stdout.close()
        self.kills += 1
        self.account(cid, p, path, True)

    def stop_all(self, timeout):
        for p, _ in self.live.values():
            p.send_signal(signal.SIGTERM)
        end = time.time() + timeout
        for cid, (p, path) in list(self.live.items()):
            try:
                p.wait(max(1, end - time.time()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                self.problems.append(f"client {cid} did not finish within {timeout} s "
                                     "of SIGTERM")
            self.account(cid, p, path, False)
            p.stdout.close()
        self.live = {}


def embedded(args, deadline, res):
    """dpsctp-echo and dpsctp-perf in loopback over the impairments, run after run."""
    b = args.build
    i = 0
    while time.time() < deadline - 5:
        i += 1
        seed = random.getrandbits(31)
        imp = ["--impair", f"{IMPAIR},seed={seed}", "--impair-rx", f"{IMPAIR},seed={seed + 1}"]
        eal = [*EAL, "--no-shconf", f"--file-prefix=soak{os.getpid()}e"]
        abort_after = 0
        if i % 3:
            n, ln, st = random.randint(500, 5000), random.randint(8, 4000), random.randint(1, 16)
            argv = [os.path.join(b, "apps/dpsctp-echo/dpsctp-echo"), *eal, "--", "--loopback",
                    "-n", str(n), "-l", str(ln), "--streams", str(st), *imp]
            if i % 3 == 2:
                # Every other echo run ends in the client's ABORT, messages in flight.
                abort_after = random.randint(1, n - 1)
                argv += ["--abort-after", str(abort_after)]
        else:
            n, ln = None, random.choice([64, 300, 1200])
            argv = [os.path.join(b, "apps/dpsctp-perf/dpsctp-perf"), *eal, "--", "--loopback",
                    "-t", "2", "-l", str(ln), "-P", "4", "-S", "4", "--pps", "3000", "--json",
                    *imp]
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=120)
            text, rc = r.stdout, r.returncode
        except subprocess.TimeoutExpired as e:
            text, rc = str(e.stdout), None
        res["runs"] += 1
        ok = False
        if n is not None and abort_after:
            # Every echo that came back intact; the rest failed by the
            # client's own ABORT (dpsctp-echo checks both ends took it).
            m = re.search(r"(\d+) sent, (\d+) echoed intact, (\d+) bad", text)
            ok = rc == 0 and m is not None and m.group(3) == "0" and \
                int(m.group(2)) >= abort_after and "client: association aborted" in text
            if ok:
                res["messages"] += int(m.group(2))
                res["failed_by_abort"] += int(m.group(1)) - int(m.group(2))
                res["associations"] += 1
                res["aborted"] += 1
        elif n is not None:
            m = re.search(r"(\d+) sent, (\d+) echoed intact, (\d+) bad", text)
            ok = rc == 0 and m is not None and int(m.group(1)) == n and \
                int(m.group(2)) == n and m.group(3) == "0"
            if ok:
                res["messages"] += n
                res["associations"] += 1
            elif re.search(r"association lost \(reason 4,", text) and m is not None and \
                    m.group(1) == "0":
                # INIT retransmissions exhausted before a message was sent:
                # reported to the application (exit 1 says so), nothing lost.
                # The data-center profile's whole INIT budget (~1.1 s) is
                # shorter than one ARP retransmission (1 s after a lost
                # probe): docs/TESTING.md, "Soak".
                res["cant_start"] += 1
                time.sleep(0.5)
                continue
        else:
            try:
                end = json.loads(text[text.index("{"):])["end"]
                sent, got = end["sum_sent"]["messages"], end["sum_received"]["messages"]
                ok = rc == 0 and end["errors"] == 0 and sent == got and sent > 0
                if ok:
                    res["messages"] += sent
                    res["associations"] += 4
                    res["retransmits"] += end.get("retransmits", 0)
            except (ValueError, KeyError):
                ok = False
        if not ok:
            res["failures"] += 1
            if len(res["failed_runs"]) < 5:
                res["failed_runs"].append(" ".join(argv) + "\n" + text[-1500:])
        time.sleep(0.5)


def slope_kib_per_min(samples):
    """Least squares over (t seconds, rss KiB): KiB per minute."""
    if len(samples) < 3:
        return 0.0
    n = len(samples)
    mt = sum(t for t, _ in samples) / n
    mr = sum(r for _, r in samples) / n
    den = sum((t - mt) ** 2 for t, _ in samples)
    return 0.0 if den == 0 else 60 * sum((t - mt) * (r - mr) for t, r in samples) / den


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--out", default=None)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--rate", type=int, default=400, help="messages/s per application")
    ap.add_argument("--kill-every", type=float, default=8, help="mean seconds between kills")
    ap.add_argument("--rss-slope-kib", type=float, default=256)
    ap.add_argument("--rss-slack-kib", type=float, default=2048)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if os.geteuid() != 0:
        return cannot_run("the soak needs root (DPDK's runtime directory, telemetry)")
    for exe in ("apps/dpsctpd/dpsctpd", "apps/dpsctpd/dd_soak", "apps/dpsctp-echo/dpsctp-echo",
                "apps/dpsctp-perf/dpsctp-perf"):
        if not os.access(os.path.join(args.build, exe), os.X_OK):
            return cannot_run(f"{exe} is not built in {args.build}")
    args.build = os.path.abspath(args.build)
    args.out = os.path.abspath(args.out or os.path.join(args.build, "soak"))
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    args.sock = os.path.join(args.out, "dpsctpd.sock")
    seed = args.seed if args.seed is not None else random.getrandbits(31)
    random.seed(seed)
    print(f"soak: {args.minutes} min, seed {seed}, output in {args.out}", flush=True)

    t0 = time.time()
    deadline = t0 + args.minutes * 60
    restart_at = t0 + args.minutes * 60 / 3
    ledger = Ledger()
    clients = Clients(args, ledger)
    problems = []
    # (seconds, incarnation, own RSS KiB, regions' RSS KiB, fds, apps, assocs, mbufs_in_use,
    #  heap_bytes)
    samples = []
    daemons = [Daemon(args, 0, random.getrandbits(30))]
    emb = {"runs": 0, "messages": 0, "associations": 0, "aborted": 0, "failed_by_abort": 0,
           "retransmits": 0, "cant_start": 0, "failures": 0,
           "failed_runs": []}
    et = None
    try:
        # The baseline: a fresh daemon after one application came and went
        # (the peer's neighbour entry, the pools' first touches).
        warm = os.path.join(args.out, "ledger-warm.txt")
        w = subprocess.Popen([os.path.join(args.build, "apps/dpsctpd/dd_soak"), args.sock,
                              warm, "0", "1", "200"], stdout=subprocess.DEVNULL)
        time.sleep(3)
        w.send_signal(signal.SIGTERM)
        w.wait(60)
        time.sleep(1)
        base = daemons[0].stats()
        base_rss = daemons[0].rss_kib()
        base_own = base_rss[0] - base_rss[1]
        print("soak: baseline " + json.dumps(base), flush=True)

        et = threading.Thread(target=embedded, args=(args, deadline, emb), daemon=True)
        et.start()
        for _ in range(args.clients):
            clients.start()
        next_kill = time.time() + random.expovariate(1 / args.kill_every)
        next_sample = time.time()
        while time.time() < deadline:
            now = time.time()
            d = daemons[-1]
            if now >= next_sample:
                try:
                    # RSS first: telemetry's heap_bytes (a copy at most 100 ms
                    # old) then already counts what an attach has touched
                    total, region = d.rss_kib()
                    time.sleep(0.15)
                    st = d.stats()
                    samples.append((round(now - t0, 1), d.n, total - region, region,
                                    st["fds"], st["apps"], st["assocs"], st["mbufs_in_use"],
                                    st["heap_bytes"]))
                except OSError:
                    pass
                next_sample += 2
            if len(daemons) == 1 and now >= restart_at:
                print(f"soak: {now - t0:.0f} s: SIGKILL dpsctpd, start it again", flush=True)
                d.p.kill()
                d.p.wait()
                time.sleep(1)
                daemons.append(Daemon(args, 1, random.getrandbits(30)))
            if now >= next_kill:
                clients.kill_one()
                clients.start()
                next_kill = now + random.expovariate(1 / args.kill_every)
            for cid, (p, path) in list(clients.live.items()):
                if p.poll() is not None:  # an application must not end by itself
                    clients.live.pop(cid)
                    clients.account(cid, p, path, False)
                    problems.append(f"client {cid} exited by itself ({p.returncode})")
                    clients.start()
            time.sleep(0.1)
        clients.stop_all(90)
        if et is not None:
            et.join(150)
        d = daemons[-1]
        # Back to the baseline once every application has gone (the
        # telemetry copy is 100 ms old at most).
        end = time.time() + 15
        while True:
            time.sleep(0.3)
            last = d.stats()
            if all(last[k] == base[k] for k in base) or time.time() > end:
                break
        leaks = {k: [base[k], last[k]] for k in base if last[k] != base[k]}
        total, region = d.rss_kib()
        samples.append((round(time.time() - t0, 1), d.n, total - region, region, last["fds"],
                        last["apps"], last["assocs"], last["mbufs_in_use"], last["heap_bytes"]))
        d.p.send_signal(signal.SIGTERM)
        rc = d.p.wait(30)
        if rc != 0:
            problems.append(f"dpsctpd exited {rc} on SIGTERM")
    finally:
        if clients.live:
            clients.stop_all(5)
        for d in daemons:
            if d.p.poll() is None:
                d.p.kill()
                d.p.wait()
            d.f.close()
        if os.path.exists(args.sock):
            os.unlink(args.sock)
        # DPDK's runtime directories of the daemons and the embedded runs
        for prefix in [d.prefix for d in daemons] + [f"soak{os.getpid()}e"]:
            shutil.rmtree(f"/var/run/dpdk/{prefix}", ignore_errors=True)

    with open(os.path.join(args.out, "rss.csv"), "w") as f:
        f.write("seconds,daemon,own_rss_kib,app_regions_rss_kib,fds,apps,assocs,mbufs_in_use,"
                "heap_bytes\n")
        for s in samples:
            f.write(",".join(str(x) for x in s) + "\n")
    last_d = [(t, r) for t, n, r, *_ in samples if n == 1]
    half = last_d[len(last_d) // 2:]
    slope = slope_kib_per_min(half)
    slope_asserted = len(half) > 1 and half[-1][0] - half[0][0] >= 300
    # the applications' heap of the sample or the one before: one killed
    # between the two readings took its part with it
    over = [(t, r, h) for i, (t, _, r, _, _, _, _, _, h) in enumerate(samples)
            if r > base_own + max(h, samples[i - 1][8] if i else h) / 1024 + args.rss_slack_kib]
    rss = [r for _, _, r, *_ in samples]
    regions = [g for _, _, _, g, *_ in samples]
    t = ledger.t
    a = ledger.assoc
    summary = {
        "minutes": args.minutes, "seed": seed, "impairment": IMPAIR + " (both directions)",
        "sidecar": {
            "messages_sent": t["sent"], "delivered": t["delivered"], "failed": t["failed"],
            "failed_by_reason": ledger.reasons,
            "unresolved_killed": t["unresolved_killed"],
            "associations": {"opened": a.get("connect", 0), "up": a.get("up", 0),
                             "shut_down": a.get("closed", 0), "aborted": a.get("aborted", 0),
                             "lost_otherwise": sum(v for k, v in a.items()
                                                   if k.startswith("lost")),
                             "cant_start": a.get("cant_start", 0) + a.get("cant_connect", 0),
                             "ended_by_daemon_loss": a.get("daemon_lost", 0)},
            "clients_started": clients.starts, "client_kills": clients.kills,
            "clean_exits": clients.clean_exits, "daemon_restarts": len(daemons) - 1,
            "reattaches_after_daemon_loss": ledger.resets,
        },
        "embedded": {k: v for k, v in emb.items() if k != "failed_runs"},
        "duplicates_or_order_or_bytes": t["violations"], "losses": t["unresolved_clean"],
        "leaks": leaks, "leak_count": len(leaks), "baseline": base, "end": last,
        "own_rss_kib": {"first": rss[0] if rss else 0, "last": rss[-1] if rss else 0,
                    "max": max(rss) if rss else 0,
                    "baseline": base_own,
                    "samples_above_baseline_heap_slack": len(over),
                    "slack_kib": args.rss_slack_kib,
                    "slope_second_half_kib_per_min": round(slope, 1),
                    "slope_asserted": slope_asserted,
                    "slope_bound_kib_per_min": args.rss_slope_kib, "samples": len(samples),
                    "app_regions_max": max(regions) if regions else 0,
                    "curve": os.path.join(args.out, "rss.csv")},
    }
    problems += clients.problems + ledger.viol + emb["failed_runs"]
    if leaks:
        problems.append(f"not back to the baseline: {leaks}")
    if over:
        problems.append(f"own RSS above the baseline {base_own} KiB + the applications' heap "
                        f"+ {args.rss_slack_kib:.0f} KiB: {over[:5]}")
    if rss and rss[-1] > base_own + args.rss_slack_kib:
        problems.append(f"own RSS {rss[-1]} KiB at the end, baseline {base_own} KiB")
    if slope_asserted and abs(slope) > args.rss_slope_kib:
        problems.append(f"RSS not flat: {slope:.0f} KiB/min over the second half (own memory)")
    if len(daemons) != 2:
        problems.append("the daemon was not restarted (run too short?)")
    if t["sent"] == 0 or t["delivered"] == 0 or emb["messages"] == 0:
        problems.append("nothing was exchanged")
    if t["delivered"] + t["failed"] + t["unresolved_killed"] != t["sent"]:
        problems.append("the ledger does not add up")
    summary["problems"] = problems
    summary["ok"] = not problems
    text = json.dumps(summary, indent=1)
    Path(os.path.join(args.out, "summary.json")).write_text(text + "\n")
    print(text)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
