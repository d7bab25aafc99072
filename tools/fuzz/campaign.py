#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A fuzzing campaign: every libFuzzer target of a fuzz build, a persistent
corpus each, a ledger of the effort spent, and a coverage report.

  campaign.py --fuzz-build DIR --cov-build DIR --state DIR [--logs DIR]
              [--minutes M] [--no-coverage] [TARGET...]

Targets are found, not listed: every test of suite 'fuzz' in DIR (meson
introspection) that runs sctp/fuzz/run_fuzz.py --libfuzzer EXE; its seeds
and regression directory are the test's own arguments. TARGET names limit
the run to those. For each target, in turn:

  1. libFuzzer runs for M minutes (fractions allowed) on the persistent
     corpus STATE/TARGET/corpus, the seeds and the kept regression inputs;
     new inputs go to a scratch directory;
  2. a crash, leak or timeout it finds is copied into the target's
     regression directory in the source tree (commit it, fix the bug) and
     the campaign ends with exit status 1 after the other targets ran;
  3. the corpus, the new inputs and the seeds are merged with -merge=1
     into a minimal corpus that replaces STATE/TARGET/corpus;
  4. STATE/ledger.json adds up the CPU time (user + system of the fuzzing
     process) and executions, and records the corpus size: read, changed
     and written under a lock (STATE/ledger.json.lock), so two campaigns
     of different targets may run at once, one per core.

STATE holds only what is worth keeping (./dev.sh fuzz's default is
tests/fuzz_campaign/ in the source tree, committed after a campaign, so the
CPU time and the corpus add up across machines and clones); libFuzzer's logs
go to LOGS (default STATE/logs).

Then, unless --no-coverage: the coverage build (clang source-based
coverage, no sanitizers; configured with the fuzz build's options the first
time) builds the targets, replays each corpus (-runs=0) and llvm-cov counts
the lines covered in the code the target aims at: the directory above its
fuzz/ directory (sctp/ for sctp/fuzz/fuzz_packet), the fuzz/ directory
itself excluded. The ledger keeps the last figures; tools/fuzz/table.py
prints them for docs/TESTING.md. Exit 0 when no target found anything.
"""
import argparse
import datetime
import fcntl
import glob
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import table  # noqa: E402

LIBFUZZER_LIMITS = ["-timeout=10", "-rss_limit_mb=2048"]
SANITIZER_ENV = {"UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
                 "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0"}


def log(msg):
    print(f"campaign: {msg}", flush=True)


def meson_info(build, name):
    with open(os.path.join(build, "meson-info", name), encoding="utf-8") as f:
        return json.load(f)


def arg_after(cmd, flag, build=None):
    """The word after flag; with build, as a path (relative ones are the build's)."""
    if flag not in cmd:
        return None
    w = cmd[cmd.index(flag) + 1]
    return os.path.join(build, w) if build is not None else w


def discover(build):
    """The libFuzzer targets of a fuzz build: name -> how its test runs it."""
    targets = {}
    for t in meson_info(build, "intro-tests.json"):
        cmd = t["cmd"]
        if not any(s.split(":")[-1] == "fuzz" for s in t["suite"]) or "--libfuzzer" not in cmd:
            continue
        script = next((w for w in cmd if w.endswith("run_fuzz.py")), None)
        if script is None:
            continue
        targets[t["name"]] = {
            "exe": arg_after(cmd, "--libfuzzer", build),
            "run_fuzz": os.path.join(build, script),
            "seeds": arg_after(cmd, "--corpus", build),
            "seed_format": arg_after(cmd, "--seed-format") or "raw",
            "regress": arg_after(cmd, "--regress", build),
        }
    return targets


def load_run_fuzz(path):
    spec = importlib.util.spec_from_file_location("run_fuzz", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def dir_size(path):
    files = [p for p in glob.glob(os.path.join(path, "*")) if os.path.isfile(p)]
    return len(files), sum(os.path.getsize(p) for p in files)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def fuzz_one(name, t, state, logs, seconds, tmp):
    """Fuzz, keep what crashed, merge. Returns (ledger increments, crashes kept)."""
    corpus = os.path.join(state, name, "corpus")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(t["regress"], exist_ok=True)
    seeds, new, artifacts = (os.path.join(tmp, name, d) for d in ("seeds", "new", "artifacts"))
    for d in (seeds, new, artifacts):
        os.makedirs(d)
    n = load_run_fuzz(t["run_fuzz"]).extract_seeds(t["seeds"], seeds, t["seed_format"])
    if n == 0:
        log(f"{name}: no seeds from {t['seeds']}")
        return None, ["no seeds"]
    os.makedirs(os.path.join(logs, name), exist_ok=True)
    logf = os.path.join(logs, name, "last-run.log")
    cmd = [t["exe"], f"-max_total_time={max(1, int(round(seconds)))}", "-print_final_stats=1",
           f"-artifact_prefix={artifacts}/"] + LIBFUZZER_LIMITS + [new, corpus, seeds, t["regress"]]
    log(f"{name}: {seconds:.0f} s on {dir_size(corpus)[0]} corpus inputs and {n} seeds "
        f"(log: {logf})")
    cpu0 = children_cpu()
    with open(logf, "w", encoding="utf-8") as out:
        rc = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT,
                             env=dict(os.environ, **SANITIZER_ENV))
    cpu = children_cpu() - cpu0
    with open(logf, encoding="utf-8", errors="replace") as f:
        m = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", f.read(), re.M)
    execs = int(m[-1]) if m else 0

    kept = []
    for a in sorted(os.listdir(artifacts)):
        dst = os.path.join(t["regress"], a)
        shutil.copy(os.path.join(artifacts, a), dst)
        kept.append(dst)
    if rc != 0 and not kept:
        kept.append(f"exit status {rc} without an artifact (see {logf})")

    # A minimized union replaces the corpus; if the merge fails the union
    # is kept unminimized, so nothing found is lost.
    merged = os.path.join(tmp, name, "merged")
    os.makedirs(merged)
    mcmd = [t["exe"], "-merge=1"] + LIBFUZZER_LIMITS + [merged, corpus, new, seeds]
    with open(os.path.join(logs, name, "last-merge.log"), "w", encoding="utf-8") as out:
        mrc = subprocess.call(mcmd, stdout=out, stderr=subprocess.STDOUT,
                              env=dict(os.environ, **SANITIZER_ENV))
    if mrc == 0:
        shutil.rmtree(corpus)
        shutil.copytree(merged, corpus)
    else:
        log(f"{name}: the merge failed (exit {mrc}); new inputs added unminimized")
        for p in glob.glob(os.path.join(new, "*")):
            shutil.copy(p, corpus)
    files, size = dir_size(corpus)
    log(f"{name}: {cpu:.0f} s CPU, {execs} executions, corpus {files} files ({size} bytes)"
        f"{', ' + str(len(kept)) + ' finding(s)' if kept else ''}")
    return {"cpu_seconds": cpu, "executions": execs, "corpus_files": files,
            "corpus_bytes": size, "crashes": len(kept)}, kept


# ---- coverage ----------------------------------------------------------------

def llvm_tool(tool):
    """The llvm tool of clang's version (llvm-cov-14 for clang 14): the
    coverage build's profiles are read by the same LLVM that wrote them."""
    out = subprocess.run(["clang", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"clang version (\d+)", out)
    major = m.group(1) if m else None
    for name in ([f"{tool}-{major}"] if major else []) + [tool]:
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit(f"campaign: no {tool} for clang {major} (Debian package llvm-{major}; "
                     "./dev.sh setup installs it)")


def configure_cov(fuzz_build, cov_build):
    if os.path.exists(os.path.join(cov_build, "build.ninja")):
        return
    info = meson_info(fuzz_build, "meson-info.json")
    opts = [f"-D{o['name']}={o['value'] if not isinstance(o['value'], bool) else str(o['value']).lower()}"
            for o in meson_info(fuzz_build, "intro-buildoptions.json")
            if o["section"] == "user"]
    flags = "-fprofile-instr-generate -fcoverage-mapping"
    cmd = ["meson", "setup", cov_build, info["directories"]["source"], "-Dwerror=true",
           "-Db_lundef=false", f"-Dc_args={flags}", f"-Dcpp_args={flags}",
           f"-Dc_link_args={flags}", f"-Dcpp_link_args={flags}"] + opts
    log("configuring the coverage build: " + " ".join(cmd))
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   env=dict(build_env(cov_build), CC="clang", CXX="clang++"))


def build_env(cov_build):
    """meson's compiler checks and the build run instrumented programs: their
    profiles go into the coverage build, not into the current directory."""
    return dict(os.environ, LLVM_PROFILE_FILE=os.path.abspath(
        os.path.join(cov_build, "meson-logs", "build-%p.profraw")))


def covers(fuzz_build, exe):
    """The source directory a target aims at, relative to the source root."""
    d = os.path.dirname(os.path.relpath(os.path.realpath(exe), os.path.realpath(fuzz_build)))
    return os.path.dirname(d) if os.path.basename(d) == "fuzz" else d, d


def coverage(names, targets, fuzz_build, cov_build, state, tmp):
    configure_cov(fuzz_build, cov_build)
    src = meson_info(fuzz_build, "meson-info.json")["directories"]["source"]
    rel = {n: os.path.relpath(os.path.realpath(targets[n]["exe"]), os.path.realpath(fuzz_build))
           for n in names}
    log("building the coverage build's targets")
    subprocess.run(["ninja", "-C", cov_build] + sorted(rel.values()), check=True,
                   stdout=subprocess.DEVNULL, env=build_env(cov_build))
    profdata, llvm_cov = llvm_tool("llvm-profdata"), llvm_tool("llvm-cov")
    out = {}
    for n in names:
        t = targets[n]
        exe = os.path.join(cov_build, rel[n])
        prof = os.path.join(tmp, "cov", n)
        seeds = os.path.join(prof, "seeds")
        os.makedirs(seeds)
        load_run_fuzz(t["run_fuzz"]).extract_seeds(t["seeds"], seeds, t["seed_format"])
        dirs = [d for d in (os.path.join(state, n, "corpus"), seeds, t["regress"])
                if os.path.isdir(d)]
        env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(prof, "%p.profraw"))
        rc = subprocess.call([exe, "-runs=0"] + LIBFUZZER_LIMITS + dirs, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        raws = glob.glob(os.path.join(prof, "*.profraw"))
        if rc != 0 or not raws:
            log(f"{n}: the corpus replay failed (exit {rc}); no coverage")
            out[n] = None
            continue
        merged = os.path.join(prof, "all.profdata")
        subprocess.run([profdata, "merge", "-sparse", "-o", merged] + raws, check=True)
        js = json.loads(subprocess.run([llvm_cov, "export", "-summary-only",
                                        f"-instr-profile={merged}", exe], check=True,
                                       capture_output=True, text=True).stdout)
        aim, harness = covers(fuzz_build, t["exe"])
        covered = total = 0
        for f in js["data"][0]["files"]:
            path = os.path.relpath(os.path.normpath(os.path.join(cov_build, f["filename"])),
                                   os.path.realpath(src))
            if not path.startswith(aim + os.sep) or path.startswith(harness + os.sep):
                continue
            covered += f["summary"]["lines"]["covered"]
            total += f["summary"]["lines"]["count"]
        out[n] = {"covers": aim + "/", "lines_covered": covered, "lines_total": total}
        log(f"{n}: {covered}/{total} lines of {aim}/ covered"
            f" ({100.0 * covered / total if total else 0:.1f} %)")
    return out


# ---- the ledger --------------------------------------------------------------

def load_ledger(path):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    return {"targets": {}}


def save_ledger(path, ledger):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(ledger, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def update_ledger(path, change):
    """change(ledger) on the ledger as it is on disk now, under a lock, and
    saved: campaigns of different targets may run at once (one per core)
    and each adds only its own figures. Returns the ledger saved."""
    with open(path + ".lock", "w", encoding="utf-8") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        ledger = load_ledger(path)
        change(ledger)
        save_ledger(path, ledger)
        return ledger


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuzz-build", required=True)
    ap.add_argument("--cov-build")
    ap.add_argument("--state", required=True, help="corpora and ledger.json, kept across runs")
    ap.add_argument("--logs", help="libFuzzer's logs (default STATE/logs)")
    ap.add_argument("--minutes", type=float, default=10.0, help="per target (fractions allowed)")
    ap.add_argument("--no-coverage", action="store_true")
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args()
    if args.minutes <= 0:
        ap.error("--minutes must be positive")
    if not args.no_coverage and not args.cov_build:
        ap.error("--cov-build is needed for the coverage report (or --no-coverage)")

    targets = discover(args.fuzz_build)
    unknown = [n for n in args.targets if n not in targets]
    if not targets or unknown:
        log(f"no such libFuzzer target in {args.fuzz_build}: {' '.join(unknown) or '(none)'}; "
            f"there are: {' '.join(sorted(targets)) or 'none'}")
        return 1
    names = args.targets or sorted(targets)
    os.makedirs(args.state, exist_ok=True)
    ledger_path = os.path.join(args.state, "ledger.json")
    findings = {}
    log(f"{len(names)} targets, {args.minutes:g} min each: {' '.join(names)}")
    with tempfile.TemporaryDirectory(prefix="dpsctp-campaign-") as tmp:
        for n in names:
            inc, kept = fuzz_one(n, targets[n], args.state,
                                 args.logs or os.path.join(args.state, "logs"),
                                 args.minutes * 60, tmp)
            if kept:
                findings[n] = kept
            if inc is None:
                continue

            def add(ledger, n=n, inc=inc):
                e = ledger["targets"].setdefault(n, {})
                for k in ("cpu_seconds", "executions", "crashes"):
                    e[k] = e.get(k, 0) + inc[k]
                e["cpu_seconds"] = round(e["cpu_seconds"], 1)
                e["runs"] = e.get("runs", 0) + 1
                e["corpus_files"], e["corpus_bytes"] = inc["corpus_files"], inc["corpus_bytes"]
                e["last_run"] = datetime.datetime.now(datetime.timezone.utc).strftime(
                    "%Y-%m-%dT%H:%M:%SZ")
            update_ledger(ledger_path, add)
        if not args.no_coverage:
            cov = coverage(names, targets, args.fuzz_build, args.cov_build, args.state, tmp)

            def put(ledger):
                for n, c in cov.items():
                    ledger["targets"].setdefault(n, {})["coverage"] = c
            update_ledger(ledger_path, put)
    ledger = load_ledger(ledger_path)
    print()
    print(table.markdown({"targets": {n: ledger["targets"][n] for n in names
                                      if n in ledger["targets"]}}), end="")
    print(f"\nledger: {ledger_path} (tools/fuzz/table.py {ledger_path} --md docs/TESTING.md)")
    for n, kept in findings.items():
        print(f"FINDING {n}: " + "\n  ".join([""] + kept))
    if findings:
        print("campaign: FAILED: commit the kept inputs, fix the bugs; they replay in every "
              "build from then on")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
