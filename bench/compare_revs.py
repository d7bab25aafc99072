#!/usr/bin/env python3
"""Compare the data path's figures of two revisions, measured side by side.

  compare_revs.py REV [--rounds N] [--min-time S] [--perf-seconds T] [--out FILE]
                      [--perf-arg=ARG ...] [--instructions]

A is REV (any git revision), B the working tree as it is, uncommitted
changes included. Both are built here, in a temporary directory, with the
same meson options (the default build type, the one ./dev.sh bench uses),
and only the targets measured: bench_assoc_rx, bench_assoc_tx,
bench_dp_loopback and dpsctp-perf. Then N rounds; in each, every
measurement runs on A and on B back to back, the side that goes first
alternating from round to round, so that a slow stretch of the machine
lands on both.

Prints one JSON document on stdout (and into --out): per metric the median
of A and of B over the rounds, B/A, each side's min and max, the noise (the
larger relative min-max spread of the two sides) and a verdict: "within
noise" when B/A is inside it, else "faster" or "slower". A short table goes
to stderr. Exit status 1 if a build or a run failed. The temporary
directory is removed at the end, on failure and on SIGINT/SIGTERM too.

--instructions adds what no busy machine blurs: instructions per call of
the core's receive and send entries (sctp_assoc_input on bench_assoc_rx's
BM_RxData64/dc:1, one DATA packet; sctp_assoc_send on bench_assoc_tx's
BM_Small64, one 64-byte message and its share of the flushes and SACKs),
counted by valgrind's callgrind (--toggle-collect) once per side: a count,
not a time, so one run each is exact, and B/A says what the code costs
more or less. Metrics "instr/..." (lower is better, no noise).

The default (3 rounds) takes about five minutes on two cores. One round
has no spread, so every difference shows as faster or slower: use at least
three. Nothing here gates a test on speed (bench/tests/compare_revs_test.py
checks the parsing and the verdicts on fixed documents).
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ["bench/bench_assoc_rx", "bench/bench_assoc_tx", "bench/bench_dp_loopback",
           "apps/dpsctp-perf/dpsctp-perf"]
# As ./dev.sh run: no hugepages, no PCI, both lcores, 1 GiB.
EAL = ["--no-huge", "--no-pci", "--no-shconf", "-l", "0-1", "-m", "1024",
       "--log-level", "lib.eal:error"]
PERF_SIZES = (64, 1452)


# ---- Parsing one run's output --------------------------------------------

def parse_gbench(doc, prefix):
    """Google Benchmark JSON -> {metric: (value, unit, higher_is_better)}.

    A benchmark's throughput if it reports one (items_per_second, or the
    msgs_per_s counter of bench_dp_loopback), its CPU time otherwise.
    """
    out = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b["name"].split("/min_time:")[0]
        if "items_per_second" in b:
            out[f"{prefix}/{name}"] = (float(b["items_per_second"]), "items/s", True)
        elif "msgs_per_s" in b:
            out[f"{prefix}/{name}"] = (float(b["msgs_per_s"]), "msgs/s", True)
        else:
            out[f"{prefix}/{name}"] = (float(b["cpu_time"]), b.get("time_unit", "ns"), False)
    return out


def parse_perf(doc, size):
    """dpsctp-perf --json (docs/PERF_TOOL.md) -> {metric: (value, unit, higher_is_better)}."""
    end = doc["end"]
    out = {f"perf_{size}/messages_per_second":
           (float(end["sum_received"]["messages_per_second"]), "msgs/s", True)}
    for side in ("sender", "receiver"):
        v = (end.get("cycles_per_message") or {}).get(side)
        if isinstance(v, (int, float)):
            out[f"perf_{size}/cycles_per_message_{side}"] = (float(v), "cycles", False)
    return out


# The core entries --instructions counts: (metric, benchmark, filter, function).
INSTR = [("instr/rx_data_packet", "bench_assoc_rx", "BM_RxData64/dc:1", "sctp_assoc_input"),
         ("instr/tx_message_64", "bench_assoc_tx", "BM_Small64", "sctp_assoc_send")]


def parse_callgrind(text, fn):
    """Instructions per call of fn: a callgrind profile collected inside fn
    alone (--toggle-collect), its total over the calls its callers made."""
    ids = {}
    for m in re.finditer(r"^c?fn=\((\d+)\)(?: (.*))?$", text, re.M):
        if m.group(2):
            ids[m.group(1)] = m.group(2)
    want = {k for k, v in ids.items() if v == fn}
    lines = text.split("\n")
    calls = 0
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"^cfn=\((\d+)\)", line)
        if m and m.group(1) in want:
            c = re.match(r"^calls=(\d+)", lines[i + 1])
            if c:
                calls += int(c.group(1))
    total = re.search(r"^totals: (\d+)", text, re.M)
    if calls == 0 or total is None:
        raise ValueError(f"no call of {fn} in the profile")
    return int(total.group(1)) / calls


def instructions(bdir, tmp):
    """{metric: (instructions per call, unit, higher_is_better)} of one build."""
    out = {}
    for metric, exe, flt, fn in INSTR:
        prof = tmp / f"callgrind.{bdir.name}.{exe}"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={prof}",
                        f"--toggle-collect={fn}", str(bdir / "bench" / exe),
                        f"--benchmark_filter={flt}", "--benchmark_min_time=0.05"],
                       check=True, capture_output=True, timeout=600)
        out[metric] = (parse_callgrind(prof.read_text(), fn), "instr/call", False)
    return out


# ---- Summary ---------------------------------------------------------------

def verdict(ratio, noise, higher_is_better):
    """'within noise' when B/A is inside the observed spread, else faster/slower."""
    if abs(ratio - 1.0) <= noise:
        return "within noise"
    return "faster" if (ratio > 1.0) == higher_is_better else "slower"


def summarize(samples, meta):
    """samples: {"a"|"b": {metric: [values]}}; meta: {metric: (unit, higher_is_better)}.

    Returns {metric: {...}} in the order of meta.
    """
    out = {}
    for m, (unit, higher) in meta.items():
        a, b = samples["a"].get(m, []), samples["b"].get(m, [])
        row = {"unit": unit, "better": "higher" if higher else "lower",
               "a_runs": a, "b_runs": b}
        if not a or not b:
            row["verdict"] = "missing"
            out[m] = row
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        row.update({"a": ma, "b": mb, "spread_a": [min(a), max(a)],
                    "spread_b": [min(b), max(b)]})
        if ma <= 0 or mb <= 0:
            row["verdict"] = "missing"
            out[m] = row
            continue
        noise = max((max(a) - min(a)) / ma, (max(b) - min(b)) / mb)
        ratio = mb / ma
        row.update({"ratio": ratio, "noise": noise, "verdict": verdict(ratio, noise, higher)})
        out[m] = row
    return out


def fmt(v):
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return f"{v / 1e6:.2f}M"
    if abs(v) >= 1e4:
        return f"{v / 1e3:.1f}k"
    return f"{v:.1f}"


def table(metrics):
    """The human summary: one line per metric."""
    w = max([len(m) for m in metrics] + [6])
    lines = [f"{'metric':<{w}}  {'A':>9}  {'B':>9}  {'B/A':>6}  {'noise':>7}  verdict",
             "-" * (w + 50)]
    for m, r in metrics.items():
        ratio = f"{r['ratio']:.3f}" if "ratio" in r else "-"
        noise = f"±{100 * r['noise']:.1f}%" if "noise" in r else "-"
        lines.append(f"{m:<{w}}  {fmt(r.get('a')):>9}  {fmt(r.get('b')):>9}  {ratio:>6}  "
                     f"{noise:>7}  {r['verdict']} ({r['unit']}, {r['better']} is better)")
    return "\n".join(lines)


# ---- Building and running --------------------------------------------------

def log(*a):
    print("compare_revs:", *a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build(src, bdir, meson_opts):
    run(["meson", "setup", str(bdir), str(src), "-Dtests=disabled", *meson_opts],
        stdout=subprocess.DEVNULL)
    p = subprocess.run(["ninja", "-C", str(bdir), *TARGETS], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"build of {src} failed:\n{p.stdout[-4000:]}{p.stderr[-2000:]}")


def export_rev(rev, dest):
    """REV's tree into dest (git archive: nothing in .git changes)."""
    dest.mkdir(parents=True)
    tar = dest.parent / "rev.tar"
    with open(tar, "wb") as f:
        run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], stdout=f)
    run(["tar", "-x", "-f", str(tar), "-C", str(dest)])
    tar.unlink()


def measurements(bdir, min_time, perf_seconds, perf_args=()):
    """(label, argv, parser) of everything one side runs per round; perf_args
    go to both sides' dpsctp-perf (e.g. --extensions pr-sctp, so that a tree
    whose default set has I-DATA is measured on the DATA path, as one
    without it)."""
    out = []
    for exe in ("bench_assoc_rx", "bench_assoc_tx", "bench_dp_loopback"):
        out.append((exe, [str(bdir / "bench" / exe), "--benchmark_format=json",
                          f"--benchmark_min_time={min_time}"],
                    lambda d, exe=exe: parse_gbench(d, exe)))
    perf = str(bdir / "apps/dpsctp-perf/dpsctp-perf")
    for n in PERF_SIZES:
        out.append((f"dpsctp-perf -l {n}",
                    [perf, *EAL, "--", "--loopback", "--json", "-i", "0",
                     "-t", str(perf_seconds), "-l", str(n), *perf_args],
                    lambda d, n=n: parse_perf(d, n)))
    return out


def run_one(argv, parser, timeout):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        err = "\n".join(l for l in p.stderr.splitlines() if not l.startswith("TELEMETRY"))
        raise RuntimeError(f"{' '.join(argv)}: exit {p.returncode}: {err[-1000:]}")
    return parser(json.loads(p.stdout))


def compare(a_build, b_build, rounds, min_time, perf_seconds, perf_args=()):
    samples = {"a": {}, "b": {}}
    meta, errors = {}, []
    sides = {"a": measurements(a_build, min_time, perf_seconds, perf_args),
             "b": measurements(b_build, min_time, perf_seconds, perf_args)}
    for r in range(rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        for i in range(len(sides["a"])):
            for side in order:
                label, argv, parser = sides[side][i]
                log(f"round {r + 1}/{rounds}: {side.upper()} {label}")
                try:
                    got = run_one(argv, parser, timeout=120 + 10 * perf_seconds)
                except (RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
                    errors.append(f"{side.upper()} round {r + 1}: {e}")
                    log(errors[-1])
                    continue
                for m, (v, unit, higher) in got.items():
                    meta.setdefault(m, (unit, higher))
                    samples[side].setdefault(m, []).append(v)
    return samples, meta, errors


def git_out(*args):
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="revision A (B is the working tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.2,
                    help="--benchmark_min_time of the Google benchmarks (s)")
    ap.add_argument("--perf-seconds", type=int, default=2, help="dpsctp-perf -t")
    ap.add_argument("--meson-option", action="append", default=[],
                    help="extra option for both builds' meson setup (repeatable)")
    ap.add_argument("--out", help="also write the JSON document here")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions per call of the core's receive and send "
                         "entries under callgrind (valgrind; exact, no noise)")
    ap.add_argument("--perf-arg", action="append", default=[],
                    help="an argument for both sides' dpsctp-perf, after its others "
                         "(repeatable; --perf-arg=--extensions --perf-arg=pr-sctp)")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")

    try:
        commit = git_out("rev-parse", "--verify", "--quiet", a.rev + "^{commit}")
    except subprocess.CalledProcessError:
        log(f"error: {a.rev} is not a revision of {ROOT}")
        return 2
    head = git_out("rev-parse", "HEAD")
    dirty = git_out("status", "--porcelain", "--untracked-files=no") != ""
    tmp = Path(tempfile.mkdtemp(prefix="dpsctp-compare-"))
    # SIGTERM (a timeout, a CI cancel) unwinds like SIGINT so finally runs.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        log(f"A = {a.rev} ({commit[:12]}), B = working tree ({head[:12]}"
            f"{' + changes' if dirty else ''}); building in {tmp}")
        export_rev(commit, tmp / "a-src")
        build(tmp / "a-src", tmp / "a-build", a.meson_option)
        build(ROOT, tmp / "b-build", a.meson_option)
        samples, meta, errors = compare(tmp / "a-build", tmp / "b-build", a.rounds,
                                        a.min_time, a.perf_seconds, a.perf_arg)
        if a.instructions:
            for side in ("a", "b"):
                log(f"instructions: {side.upper()} under callgrind")
                try:
                    got = instructions(tmp / f"{side}-build", tmp)
                except (subprocess.CalledProcessError, subprocess.TimeoutExpired,
                        ValueError, OSError) as e:
                    errors.append(f"{side.upper()} instructions: {e}")
                    log(errors[-1])
                    continue
                for m, (v, unit, higher) in got.items():
                    meta.setdefault(m, (unit, higher))
                    samples[side].setdefault(m, []).append(v)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        log(f"error: {e}")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    metrics = summarize(samples, meta)
    doc = {
        "a": {"rev": a.rev, "commit": commit},
        "b": {"rev": "working tree", "commit": head, "uncommitted_changes": dirty},
        "rounds": a.rounds, "min_time_s": a.min_time, "perf_seconds": a.perf_seconds,
        "perf_args": a.perf_arg,
        "machine": {"cpus": os.cpu_count(), "uname": " ".join(os.uname())},
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "metrics": metrics, "errors": errors,
    }
    text = json.dumps(doc, indent=1)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    print(table(metrics), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
