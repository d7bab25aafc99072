#!/usr/bin/env python3
"""Regenerate the end-to-end part of docs/PERFORMANCE.md from run.py's JSON:
tables with dpsctp's figures and the ratios against usrsctp (CRC32c on and
off), Linux TCP and the raw ceiling of the same DPDK path; the issue's goals
with met / missed by how much; the command of every figure; PNG plots.

usage: report.py [--in bench/results/e2e.json] [--md docs/PERFORMANCE.md] [--img docs/img]

Only the text between the lines <!-- e2e:begin --> and <!-- e2e:end --> is
replaced (both are appended when absent). The same input gives the same
output.
"""
import argparse
import json
import os
import sys

BEGIN, END = "<!-- e2e:begin -->", "<!-- e2e:end -->"


def fmt(v, unit=""):
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    a = abs(v)
    if a >= 1e9:
        s = f"{v / 1e9:.2f} G"
    elif a >= 1e6:
        s = f"{v / 1e6:.2f} M"
    elif a >= 1e4:
        s = f"{v / 1e3:.0f} k"
    elif a >= 100:
        s = f"{v:.0f} "
    elif a >= 10:
        s = f"{v:.1f} "
    else:
        s = f"{v:.2f} "
    return (s + unit).strip()


def ratio(a, b):
    if not a or not b:
        return "–"
    return f"×{a / b:.1f}" if a >= b else f"×{a / b:.2f}"


class Runs:
    def __init__(self, doc):
        self.doc = doc
        self.runs = doc["runs"]

    def find(self, scenario, impl, **params):
        for r in self.runs:
            if r["scenario"] != scenario or r["impl"] != impl:
                continue
            if all(r["params"].get(k) == v for k, v in params.items()):
                return r
        return None

    def m(self, scenario, impl, metric, **params):
        r = self.find(scenario, impl, **params)
        if r is None or r.get("error"):
            return None
        return r["median"].get(metric)


def throughput_table(R, sizes, out, cmds):
    out.append("| message | dpsctp msg/s | goodput | cycles/msg sender / receiver | "
               "usrsctp msg/s (ratio) | usrsctp no CRC (ratio) | TCP goodput (ratio) | "
               "raw ceiling msg/s (dpsctp's share) |")
    out.append("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        p = dict(message_bytes=n, streams=1, assocs=1)
        d_m = R.m("throughput", "dpsctp", "messages_per_second", **p)
        d_b = R.m("throughput", "dpsctp", "bits_per_second", **p)
        cs = R.m("throughput", "dpsctp", "cycles_per_message_sender", **p)
        cr = R.m("throughput", "dpsctp", "cycles_per_message_receiver", **p)
        u = R.m("throughput", "usrsctp", "messages_per_second", message_bytes=n)
        un = R.m("throughput", "usrsctp-nocrc", "messages_per_second", message_bytes=n)
        t = R.m("throughput", "tcp", "bits_per_second", message_bytes=n)
        raw = R.m("throughput", "raw", "messages_per_second", message_bytes=n)
        rawb = R.m("throughput", "raw-bundled", "messages_per_second", message_bytes=n)
        rawtxt = f"{fmt(raw)} ({ratio(d_m, raw)})"
        if rawb:
            rawtxt += f"; bundled {fmt(rawb)} ({ratio(d_m, rawb)})"
        out.append(f"| {n} B | {fmt(d_m)} | {fmt(d_b, 'bit/s')} | {fmt(cs)} / {fmt(cr)} | "
                   f"{fmt(u)} ({ratio(d_m, u)}) | {fmt(un)} ({ratio(d_m, un)}) | "
                   f"{fmt(t, 'bit/s')} ({ratio(d_b, t)}) | {rawtxt} |")
        for impl in ("dpsctp", "usrsctp", "usrsctp-nocrc", "tcp", "raw", "raw-bundled"):
            r = R.find("throughput", impl, **({"message_bytes": n, "streams": 1, "assocs": 1}
                                               if impl == "dpsctp" else {"message_bytes": n}))
            if r is not None:
                cmds.append((f"{impl} {n} B", r["command"]))


def matrix_table(R, sizes, out, cmds):
    out.append("| message | 1 stream, 1 assoc | 8 streams, 1 assoc | 1 stream, 64 assocs | "
               "8 streams, 64 assocs |")
    out.append("|---|---|---|---|---|")
    for n in sizes:
        cells = []
        for s, p in ((1, 1), (8, 1), (1, 64), (8, 64)):
            v = R.m("throughput", "dpsctp", "messages_per_second", message_bytes=n, streams=s,
                    assocs=p)
            b = R.m("throughput", "dpsctp", "bits_per_second", message_bytes=n, streams=s,
                    assocs=p)
            cells.append(f"{fmt(v)} msg/s, {fmt(b)}bit/s" if v else "–")
            r = R.find("throughput", "dpsctp", message_bytes=n, streams=s, assocs=p)
            if r is not None and (s, p) != (1, 1):
                cmds.append((f"dpsctp {n} B, {s} streams, {p} assocs", r["command"]))
        out.append(f"| {n} B | " + " | ".join(cells) + " |")


def latency_table(R, out, cmds):
    out.append("| message | implementation | load | p50 | p90 | p99 | p99.9 | max | "
               "its p50 over dpsctp's |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    names = [("dpsctp", "dpsctp (net_ring)", 0), ("dpsctp-loaded", "dpsctp (net_ring)", 0.5),
             ("usrsctp", "usrsctp (AF_CONN)", 0), ("tcp-busy", "Linux TCP, busy-poll reads", 0),
             ("tcp", "Linux TCP, blocking reads", 0)]
    for n in (64, 1452):
        for impl, label, load in names:
            r = R.find("latency", impl, message_bytes=n)
            if r is None:
                continue
            med = r["median"] if not r.get("error") else {}
            got = med.get("bits_per_second")
            load_txt = "unloaded" if load == 0 else \
                (f"bulk paced at {fmt(r['params'].get('rate_bps'))}bit/s on the wire (50 %), "
                 f"{fmt(got, 'bit/s')} of goodput with the pings")
            base = R.m("latency", "dpsctp", "p50", message_bytes=n)
            rel = "–" if impl == "dpsctp" else ratio(med.get("p50"), base)
            out.append(f"| {n} B | {label} | {load_txt} | " +
                       " | ".join(fmt(med.get(k)) for k in ("p50", "p90", "p99", "p999", "max")) +
                       f" | {rel} |" + (f" error: {r['error'][:80]}" if r.get("error") else ""))
            cmds.append((f"latency {impl} {n} B", r["command"]))


def plots(R, sizes, img):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: no matplotlib in this python (Debian: python3-matplotlib, "
              "/usr/bin/python3): the plots were not drawn", file=sys.stderr)
        return []
    os.makedirs(img, exist_ok=True)
    made = []
    impls = [("dpsctp", "dpsctp"), ("usrsctp", "usrsctp"), ("usrsctp-nocrc", "usrsctp, no CRC"),
             ("tcp", "Linux TCP (iperf3)"), ("raw", "raw ceiling")]
    for metric, ylabel, fname, scale in (("bits_per_second", "goodput, Gbit/s", "e2e_goodput.png", 1e9),
                                         ("messages_per_second", "million messages/s",
                                          "e2e_messages.png", 1e6)):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for impl, label in impls:
            xs, ys = [], []
            for n in sizes:
                kw = dict(message_bytes=n, streams=1, assocs=1) if impl == "dpsctp" else \
                    dict(message_bytes=n)
                v = R.m("throughput", impl, metric, **kw)
                if v:
                    xs.append(n)
                    ys.append(v / scale)
            if xs:
                ax.plot(xs, ys, marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes)
        ax.set_xticklabels([str(s) for s in sizes])
        ax.set_xlabel("message size, bytes")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title("one core per end, loopback (" + ylabel + ")")
        fig.tight_layout()
        fig.savefig(os.path.join(img, fname), dpi=90, metadata={"Software": None})
        plt.close(fig)
        made.append(fname)
    # Latency "CDF" from the quantiles each tool reports.
    fig, ax = plt.subplots(figsize=(7, 4.2))
    qs = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)]
    for impl, label in (("dpsctp", "dpsctp"), ("dpsctp-loaded", "dpsctp, 50 % load"),
                        ("usrsctp", "usrsctp"), ("tcp-busy", "TCP busy-poll"), ("tcp", "TCP")):
        r = R.find("latency", impl, message_bytes=64)
        if r is None or r.get("error"):
            continue
        xs = [r["median"].get(k) for k, _ in qs]
        if None in xs:
            continue
        ax.plot(xs, [q for _, q in qs], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("one-way latency (RTT/2), us")
    ax.set_ylabel("quantile")
    ax.set_title("64-byte ping-pong: p50, p90, p99, p99.9")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(img, "e2e_latency.png"), dpi=90, metadata={"Software": None})
    plt.close(fig)
    made.append("e2e_latency.png")
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs, ys = [], []
    for r in R.runs:
        if r["scenario"] == "loss" and not r.get("error") and "bits_per_second" in r["median"]:
            xs.append(r["params"]["loss_percent"])
            ys.append(r["median"]["bits_per_second"] / 1e9)
    if xs:
        pts = sorted(zip(xs, ys))
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label="dpsctp 1452 B")
        ax.set_xscale("log")
        ax.set_xlabel("frame loss each way, %")
        ax.set_ylabel("goodput, Gbit/s")
        ax.set_title("goodput against loss (--impair), one core per end")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(img, "e2e_loss.png"), dpi=90, metadata={"Software": None})
        made.append("e2e_loss.png")
    plt.close(fig)
    return made


def goals(R, out):
    g = []

    def row(goal, value, target, higher=True, unit=""):
        if value is None:
            g.append(f"| {goal} | – | not measured |")
            return
        met = value >= target if higher else value <= target
        if met:
            verdict = "met"
        else:
            verdict = (f"missed: {value / target * 100:.0f} % of the goal" if higher else
                       f"missed: {value / target:.1f}× the goal")
        g.append(f"| {goal} | {fmt(value, unit)} | {verdict} |")

    p64 = dict(message_bytes=64, streams=1, assocs=1)
    p1452 = dict(message_bytes=1452, streams=1, assocs=1)
    d64 = R.m("throughput", "dpsctp", "messages_per_second", **p64)
    u64 = R.m("throughput", "usrsctp", "messages_per_second", message_bytes=64)
    row("64 B: ≥ 10× usrsctp's messages/s", d64 / u64 if d64 and u64 else None, 10, unit="×")
    row("64 B: ≥ 10 M messages/s with bundling", d64, 10e6, unit="msg/s")
    nb = R.find("throughput", "dpsctp-nobundle", message_bytes=64)
    pps = R.m("throughput", "dpsctp-nobundle", "packets_per_second", message_bytes=64)
    nb_mps = R.m("throughput", "dpsctp-nobundle", "messages_per_second", message_bytes=64)
    row("64 B, one message per send and flush (`--burst 1`): ≥ 6 Mpps", pps, 6e6, unit="pps")
    if nb is not None and pps and nb_mps:
        g[-1] = g[-1][:-2] + f"; {nb_mps / pps:.2f} messages per packet |"
    d1452 = R.m("throughput", "dpsctp", "bits_per_second", **p1452)
    u1452 = R.m("throughput", "usrsctp", "bits_per_second", message_bytes=1452)
    t1452 = R.m("throughput", "tcp", "bits_per_second", message_bytes=1452)
    row("1452 B: ≥ 10× usrsctp's goodput", d1452 / u1452 if d1452 and u1452 else None, 10,
        unit="×")
    row("1452 B: ≥ 40 Gbit/s per core", d1452, 40e9, unit="bit/s")
    cpb = R.m("throughput", "dpsctp", "cycles_per_byte_sender", **p1452)
    row("1452 B: ≤ 0.5 cycles/byte all-in (sender)", cpb, 0.5, higher=False)
    row("1452 B: ≥ kernel TCP's goodput", d1452 / t1452 if d1452 and t1452 else None, 1, unit="×")
    row("ping-pong 64 B: p50 ≤ 1 us one way", R.m("latency", "dpsctp", "p50", message_bytes=64),
        1, higher=False, unit="us")
    row("ping-pong 64 B: p99 ≤ 2 us one way", R.m("latency", "dpsctp", "p99", message_bytes=64),
        2, higher=False, unit="us")
    hs = [r for r in R.runs if r["scenario"] == "handshakes" and not r.get("error")]
    best = max((r["median"].get("handshakes_per_second", 0) for r in hs), default=None)
    row("≥ 500,000 handshakes/s per core", best, 500e3, unit="/s")
    mem = marginal_memory(R)
    row("≥ 2 M idle associations per GB (≤ 537 B each)", 2**30 / mem if mem else None, 2e6,
        unit="/GiB")
    raw64 = R.m("throughput", "raw", "packets_per_second", message_bytes=64)
    row("64 B, one chunk per packet: ≥ 30 % of the bare loop's packets/s",
        pps / raw64 if pps and raw64 else None, 0.3)
    rawb64 = R.m("throughput", "raw-bundled", "messages_per_second", message_bytes=64)
    row("64 B bundled: share of the bare loop's messages/s at the same bundling",
        d64 / rawb64 if d64 and rawb64 else None, 0.3)
    raw1452 = R.m("throughput", "raw", "bits_per_second", message_bytes=1452)
    row("1452 B: ≥ 50 % of the bare loop's Gbit/s", d1452 / raw1452 if d1452 and raw1452 else None,
        0.5)
    sus = R.m("linerate", "dpsctp", "rate_sustained", message_bytes=1452)
    idle = R.m("linerate", "dpsctp", "idle_sender", message_bytes=1452)
    if sus is None:
        g.append("| 1452 B: `--rate 10g` sustained on one core with CPU to spare | – | not measured |")
    else:
        g.append(f"| 1452 B: `--rate 10g` sustained on one core with CPU to spare | "
                 f"{'sustained' if sus else 'not sustained'}, sender idle "
                 f"{fmt(idle * 100 if idle is not None else None, '%')} | "
                 f"{'met' if sus and idle and idle > 0 else 'missed'} |")
    out.append("| goal | measured | verdict |")
    out.append("|---|---|---|")
    out.extend(g)


def parse_size(s):
    """'4m' -> 4194304 (the data plane's sizes: powers of 1024)."""
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(s[-1:].lower(), 1)
    return int(float(s.rstrip("kmgKMG")) * mult)


def hol_section(R, out, cmds):
    """Head-of-line blocking: 64-byte pings beside 1 MiB messages, DATA against I-DATA."""
    runs = [r for r in R.runs if r["scenario"] == "hol"]
    if not runs:
        return
    p = runs[0]["params"]
    bulk, rate = p["message_bytes"], p["rate"]
    when = next((r["remeasured"] for r in runs if r.get("remeasured")), None) or \
        R.doc["machine"].get("date")
    frag = (1500 - 20 - 12 - 16) & ~3  # one DATA chunk's payload at MTU 1500
    chunks = -(-bulk // frag)
    size = f"{bulk >> 20} MiB" if bulk % (1 << 20) == 0 else f"{bulk // 1024} KiB"
    out.append("### Head-of-line blocking: DATA against I-DATA")
    out.append("")
    out.append(f"{p['ping_bytes']}-byte pings on stream 0, one every {p['ping_interval_us']} us "
               f"stamped with the time each was due (`--ping-interval`: however many wait, each "
               f"counts), beside {size} messages on stream 1 paced at `--rate {rate}` "
               "(wire bits), one association, round-robin scheduler, `--sndbuf 4m`, the receive "
               "window (`--rcvbuf`) as the table says, `--profile rfc` (RTO.Min 1 s: with the "
               "data-center profile's, 1 MiB bursts that wait in the receiving lcore's ring "
               "draw spurious T3-rtx here, which stall both streams alike). DATA: `--extensions pr-sctp` (I-DATA not "
               "offered); I-DATA: `--extensions pr-sctp,i-data`; all rows in the same run "
               f"({when}; run to run, figures on this shared 2-vCPU machine move by about "
               "±20 %, maxima and p99.9 more). One way is the server's receive TSC less the "
               "ping's stamp (both ends in one process: one clock); RTT/2 is the client's round "
               "trip halved, as in the ping-pong table. Microseconds. These rows alone: "
               "`python3 bench/suite/run.py --only '^hol/' --merge`, then "
               "`python3 bench/suite/report.py`.")
    out.append("")
    out.append("| `--rcvbuf` | sent as | negotiated | one way p50 | p90 | p99 | p99.9 | max | "
               "RTT/2 p50 | RTT/2 p99 | pings | goodput (bulk and pings) | retransmitted chunks | "
               "sender cycles/byte |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")

    def order(r):
        return (-parse_size(r["params"].get("rcvbuf", "4m")), r["params"]["data"] != "data")
    for r in sorted(runs, key=order):
        m = r["median"] if not r.get("error") else {}
        ext = r["results"][0]["end"].get("extensions") if r["results"] else None
        pings = None
        if r["results"]:
            ps = sorted(d["end"].get("latency_us", {}).get("samples", 0) for d in r["results"])
            pings = ps[len(ps) // 2]
        label = "DATA" if r["params"]["data"] == "data" else "I-DATA"
        out.append(f"| {r['params'].get('rcvbuf', '4m')} | {label} | {ext or '–'} | " +
                   " | ".join(fmt(m.get(k)) for k in ("one_way_p50", "one_way_p90", "one_way_p99",
                                                      "one_way_p999", "one_way_max", "p50", "p99")) +
                   f" | {fmt(pings)} | {fmt(m.get('bits_per_second'), 'bit/s')} | "
                   f"{fmt(m.get('retransmits'))} | "
                   f"{fmt(m.get('cycles_per_byte_sender'))} |" +
                   (f" error: {r['error'][:80]}" if r.get("error") else ""))
        cmds.append((f"head-of-line blocking, {label}, --rcvbuf {r['params'].get('rcvbuf')}",
                     r["command"]))
    out.append("")
    out.append(f"Why: with DATA a message's fragments carry consecutive TSNs and one stream "
               f"sequence number, so a scheduler can change streams only between messages "
               f"(RFC 8260 §1): a {size} message is {chunks} chunks that leave one "
               "after another, and a ping sent behind it waits until the last of them has gone "
               "(and, when the windows hold the sender back, until they are acknowledged). The "
               "pings that find no bulk message in the send queue see the unloaded latency; "
               "the rest wait up to a whole message's time, so the median barely moves and "
               "the upper quantiles carry the blocking. With I-DATA every fragment has its own "
               "message identifier and fragment sequence number, so the round-robin scheduler "
               "takes turns per chunk: a ping waits behind at most one chunk of the bulk "
               "message in the send queue, plus what is already in flight ahead of it. That "
               "flight is the receive window's worth (`--rcvbuf`): with 4 MiB the whole message "
               "is in flight as soon as it is sent, the queue the ping waits in is the link's "
               "(here the net_ring and the receiving lcore, which takes the frames in order), "
               "not the sender's, and no scheduler reaches it, so I-DATA changes little; with "
               "256 KiB most of the message waits in the sender's queue, which I-DATA "
               "interleaves, and the ping waits behind a quarter of a message at most.")
    out.append("")


def marginal_memory(R):
    """Bytes one more association adds: the slope between the smallest and the
    largest sizing measured (--memory runs, else the handshake runs)."""
    for scen in ("memory", "handshakes"):
        hs = sorted((r["median"].get("memory_sized_for_assocs"),
                     r["median"].get("memory_total_bytes"))
                    for r in R.runs if r["scenario"] == scen and not r.get("error")
                    and r["median"].get("memory_total_bytes"))
        if len(hs) >= 2:
            break
    if len(hs) < 2:
        return None
    (n0, m0), (n1, m1) = hs[0], hs[-1]
    return (m1 - m0) / (n1 - n0) if n1 > n0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--in", dest="inp", default="bench/results/e2e.json")
    ap.add_argument("--md", default="docs/PERFORMANCE.md")
    ap.add_argument("--img", default="docs/img")
    a = ap.parse_args()
    doc = json.load(open(a.inp))
    R = Runs(doc)
    mach = doc["machine"]
    sizes = sorted({r["params"]["message_bytes"] for r in R.runs
                    if r["scenario"] == "throughput" and r["impl"] == "dpsctp"})
    out, cmds = [], []
    out.append(BEGIN)
    out.append("## End to end: dpsctp-perf against usrsctp, Linux TCP and the raw ceiling")
    out.append("")
    reps = doc["repeats"]
    out.append(f"Generated by `bench/suite/report.py` from `{a.inp}` "
               "(`./dev.sh bench` runs `bench/suite/run.py`, then this). Every figure is the "
               + (f"median of {reps} runs" if reps > 1 else "result of one run") +
               f" of {doc['seconds']:g} s, all in one run of the suite on one machine:")
    out.append("")
    out.append(f"- machine: {mach.get('cpu')}, {mach.get('cores')} vCPUs, Linux "
               f"{mach.get('kernel')}; DPDK {mach.get('dpdk')}; usrsctp {mach.get('usrsctp')}; "
               f"{mach.get('iperf3')}; commit {mach.get('commit')}, {mach.get('date')}")
    out.append("- dpsctp: `dpsctp-perf --loopback`, client and server instances over a "
               "net_ring pair, one lcore each, software CRC32c both ends, data-center profile "
               "(docs/PERF_TOOL.md says how each figure is measured); usrsctp: "
               "`bench/suite/usrsctp-perf`, two endpoints over AF_CONN, one pinned "
               "busy-polling thread each, MTU 1500; TCP: iperf3 over loopback with "
               "TCP_NODELAY and writes of the message size, client on CPU 0 and server on "
               "CPU 1; raw ceiling: `bench/suite/raw-ceiling`, the same net_ring pair and "
               "frames with CRC32c, no protocol.")
    out.append("- Ratios are dpsctp's figure over the other's (×10 = ten times more).")
    out.append("")
    out.append("### Throughput, one association, one stream")
    out.append("")
    throughput_table(R, sizes, out, cmds)
    out.append("")
    for f in ("e2e_goodput.png", "e2e_messages.png"):
        out.append(f"![{f}](img/{f})")
    out.append("")
    out.append("### Streams and associations (dpsctp)")
    out.append("")
    matrix_table(R, sizes, out, cmds)
    out.append("")
    out.append("### Ping-pong latency, one way = RTT/2, microseconds")
    out.append("")
    latency_table(R, out, cmds)
    out.append("")
    out.append("![e2e_latency.png](img/e2e_latency.png) (the curve joins the reported "
               "quantiles; it is not a full CDF)")
    out.append("")
    out.append("### Handshakes and memory per association (RFC profile: 30 s heartbeats)")
    out.append("")
    out.append("| associations | sized for | handshakes/s | instance memory | per association |")
    out.append("|---|---|---|---|---|")
    for r in R.runs:
        if r["scenario"] != "handshakes":
            continue
        m = r["median"]
        tot, sized = m.get("memory_total_bytes"), m.get("memory_sized_for_assocs")
        out.append(f"| {r['params']['handshakes']} | {sized} | {fmt(m.get('handshakes_per_second'))} | "
                   f"{fmt(tot, 'B')} | {fmt(tot / sized if tot and sized else None, 'B')} |" +
                   (f" error: {r['error'][:80]}" if r.get("error") else ""))
        cmds.append((f"handshakes {r['params']['handshakes']}", r["command"]))
    hbs = [r for r in R.runs if r["scenario"] == "heartbeats"]
    if hbs:
        out.append("")
        out.append("Idle associations in the data-center profile (50 ms heartbeats), each end "
                   "on its own lcore, `--idle 3` after the handshakes (`--hb-rate` 0: no "
                   "budget):")
        out.append("")
        out.append("| associations | --hb-rate | handshakes/s | HEARTBEATs/s client / server "
                   "| deferred/s | client busy | cycles per heartbeat |")
        out.append("|---|---|---|---|---|---|---|")
        for r in hbs:
            m = r["median"]
            busy = m.get("busy_share_client")
            out.append(f"| {r['params']['assocs']} | {r['params']['hb_rate'] or 'none'} | "
                       f"{fmt(m.get('handshakes_per_second'))} | "
                       f"{fmt(m.get('heartbeats_per_s_client'))} / "
                       f"{fmt(m.get('heartbeats_per_s_server'))} | "
                       f"{fmt(m.get('heartbeats_deferred_per_s'))} | "
                       f"{fmt(busy * 100 if busy is not None else None)} % | "
                       f"{fmt(m.get('cycles_per_heartbeat'))} |" +
                       (f" error: {r['error'][:80]}" if r.get("error") else ""))
            cmds.append((f"heartbeats {r['params']['assocs']} {r['params']['hb_rate']}",
                         r["command"]))
    mems = sorted((r for r in R.runs if r["scenario"] == "memory"),
                  key=lambda r: r["params"]["sized_for"])
    if mems:
        out.append("")
        out.append("The server end alone (`--memory`), sized for N associations, none established:")
        out.append("")
        out.append("| sized for | instance memory | per association |")
        out.append("|---|---|---|")
        for r in mems:
            m = r["median"]
            tot = m.get("memory_total_bytes")
            n = r["params"]["sized_for"]
            out.append(f"| {n} | {fmt(tot, 'B')} | {fmt(tot / n if tot else None, 'B')} |" +
                       (f" error: {r['error'][:80]}" if r.get("error") else ""))
            cmds.append((f"memory {n}", r["command"]))
    mem = marginal_memory(R)
    if mem:
        out.append("")
        out.append(f"Marginal memory per association (between the smallest and largest sizing): "
                   f"**{mem:.0f} bytes**, so 1 GiB holds {2**30 / mem / 1e6:.2f} M idle "
                   f"associations and 1 M associations need {mem * 1e6 / 2**30:.1f} GiB.")
    out.append("")
    out.append("### 10G line rate (`--rate 10g`: wire bits with preamble, IFG, FCS and headers)")
    out.append("")
    out.append("| message | target msg/s | received msg/s | sustained | sender idle | "
               "sender cycles/msg |")
    out.append("|---|---|---|---|---|---|")
    smallest = None
    for r in sorted((r for r in R.runs if r["scenario"] == "linerate"),
                    key=lambda r: r["params"]["message_bytes"]):
        m = r["median"]
        n = r["params"]["message_bytes"]
        target = None
        if r["results"]:
            target = r["results"][0]["end"].get("rate", {}).get("target_messages_per_second")
        sus = m.get("rate_sustained")
        if sus and smallest is None:
            smallest = n
        idle = m.get("idle_sender")
        out.append(f"| {n} B | {fmt(target)} | {fmt(m.get('messages_per_second'))} | {fmt(sus)} | "
                   f"{fmt(idle * 100 if idle is not None else None, '%')} | "
                   f"{fmt(m.get('cycles_per_message_sender'))} |" +
                   (f" error: {r['error'][:80]}" if r.get("error") else ""))
        cmds.append((f"10G line rate {n} B", r["command"]))
    out.append("")
    out.append(f"Smallest message size at which one core sustained 10G line rate here: "
               f"**{str(smallest) + ' bytes' if smallest else 'none of those tried'}**.")
    out.append("")
    out.append("### Goodput against loss (1452 B, `--impair loss=P%` each way)")
    out.append("")
    out.append("| loss | goodput | msg/s | retransmitted chunks |")
    out.append("|---|---|---|---|")
    for r in sorted((r for r in R.runs if r["scenario"] == "loss"),
                    key=lambda r: r["params"]["loss_percent"]):
        m = r["median"]
        out.append(f"| {r['params']['loss_percent']} % | {fmt(m.get('bits_per_second'), 'bit/s')} | "
                   f"{fmt(m.get('messages_per_second'))} | {fmt(m.get('retransmits'))} |")
        cmds.append((f"loss {r['params']['loss_percent']} %", r["command"]))
    out.append("")
    out.append("![e2e_loss.png](img/e2e_loss.png)")
    out.append("")
    pr = sorted((r for r in R.runs if r["scenario"] == "pr_loss"),
                key=lambda r: r["params"]["loss_percent"])
    if pr:
        rel = {r["params"]["loss_percent"]: r["median"] for r in R.runs
               if r["scenario"] == "loss"}
        life = pr[0]["params"].get("lifetime_ms")
        out.append(f"### PR-SCTP against loss (1452 B, lifetime {life} ms on every message)")
        out.append("")
        out.append(f"RFC 3758 timed reliability (`--pr-policy ttl --pr-value {life}`): a "
                   f"message not acknowledged {life} ms after its send call is given up, "
                   "the receiver told with a FORWARD TSN. Goodput counts what arrived; the "
                   "reliable column is the table above's run at the same loss, measured "
                   "in the same run.")
        out.append("")
        out.append(f"| loss | goodput, lifetime {life} ms | reliable | messages given up "
                   "| of which after going out | FORWARD TSN sent |")
        out.append("|---|---|---|---|---|---|")
        for r in pr:
            m = r["median"]
            loss = r["params"]["loss_percent"]
            sent = m.get("messages_sent")
            ab = m.get("abandoned_messages")
            share = f" ({100 * ab / sent:.2f} %)" if ab is not None and sent else ""
            out.append(f"| {loss} % | {fmt(m.get('bits_per_second'), 'bit/s')} | "
                       f"{fmt(rel.get(loss, {}).get('bits_per_second'), 'bit/s')} | "
                       f"{fmt(ab)}{share} | {fmt(m.get('abandoned_after_sending'))} | "
                       f"{fmt(m.get('forward_tsn_sent'))} |" +
                       (f" error: {r['error'][:80]}" if r.get("error") else ""))
            cmds.append((f"PR-SCTP loss {loss} %", r["command"]))
        out.append("")
    hol_section(R, out, cmds)
    out.append("### Goals")
    out.append("")
    goals(R, out)
    out.append("")
    out.append("### Commands")
    out.append("")
    for label, c in cmds:
        out.append(f"- {label}: `{c}`")
    again = [r for r in R.runs if r.get("remeasured")]
    if again:
        out.append("")
        out.append("Re-measured after the suite's run (`run.py --merge`), all other figures "
                   "unchanged:")
        for r in again:
            out.append(f"- {r['name']}: {r['remeasured']}")
    errors = [r for r in R.runs if r.get("error")]
    if errors:
        out.append("")
        out.append("Runs that failed in this suite run:")
        for r in errors:
            out.append(f"- {r['name']}: {r['error'][:160]}")
    out.append(END)
    made = plots(R, sizes, a.img)
    md = open(a.md).read() if os.path.exists(a.md) else ""
    block = "\n".join(out) + "\n"
    if BEGIN in md and END in md:
        pre = md[:md.index(BEGIN)]
        post = md[md.index(END) + len(END):].lstrip("\n")
        md = pre + block + ("\n" + post if post else "")
    else:
        md = md.rstrip("\n") + "\n\n" + block
    with open(a.md, "w") as f:
        f.write(md)
    print(f"{a.md}: end-to-end section rewritten; plots: {', '.join(made) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
