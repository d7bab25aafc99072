#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""fuzz_campaign_quick: ./dev.sh fuzz end to end, for seconds.

  1. `./dev.sh fuzz 0.05 fuzz_decode` twice (3 s of libFuzzer each) on this
     fuzz build, with a scratch campaign directory: both runs exit 0, the
     ledger adds up two runs (CPU time and executions grow, the corpus is
     kept and not empty), the coverage build replays the corpus and counts
     covered lines of apps/dpsctp-decode/, and the table is printed;
  2. a stand-in fuzzer that reports a crash, found in a fake build's tests:
     the campaign exits 1, the crash input is in the target's regression
     directory and the ledger counts it;
  3. tools/fuzz/table.py rewrites a document's table between its markers,
     and fails on a document without them.

usage: campaign_quick_test.py --source REPO --build FUZZ_BUILD
The coverage build is FUZZ_BUILD/campaign-quick-cov (kept, so a second run
compiles nothing).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILS.append(what)


def run(cmd, env=None, cwd=None):
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    sys.stdout.write(p.stdout[-3000:])
    sys.stdout.write(p.stderr[-3000:])
    return p


STUB = """#!{python}
import sys
args = sys.argv[1:]
if "-merge=1" in args:
    sys.exit(0)
prefix = next(a.split("=", 1)[1] for a in args if a.startswith("-artifact_prefix="))
with open(prefix + "crash-stub", "wb") as f:
    f.write(b"boom")
print("==1==ERROR: a stand-in crash")
print("stat::number_of_executed_units: 7")
sys.exit(1)
"""


def devsh_campaign(src, build, tmp):
    state = os.path.join(tmp, "state")
    env = dict(os.environ, FUZZ_BUILD_DIR=build, FUZZ_CAMPAIGN_DIR=state,
               FUZZ_COV_BUILD_DIR=os.path.join(build, "campaign-quick-cov"),
               DEVSH_NO_INSTALL="1")
    env.pop("FUZZ_SECONDS", None)
    # The coverage build's instrumented programs (meson's checks too) must
    # not leave default.profraw where they ran.
    profraws = [os.path.join(d, "default.profraw") for d in (src, build)]
    before = [p for p in profraws if os.path.exists(p)]
    ledgers = []
    for i in (1, 2):
        p = run(["bash", os.path.join(src, "dev.sh"), "fuzz", "0.05", "fuzz_decode"], env=env)
        check(p.returncode == 0, f"run {i}: ./dev.sh fuzz 0.05 fuzz_decode exits 0")
        check("| `fuzz_decode` |" in p.stdout, f"run {i}: the table has fuzz_decode's row")
        try:
            with open(os.path.join(state, "ledger.json"), encoding="utf-8") as f:
                ledgers.append(json.load(f)["targets"]["fuzz_decode"])
        except (OSError, ValueError, KeyError) as e:
            check(False, f"run {i}: the ledger has fuzz_decode ({e})")
            return
    a, b = ledgers
    with open(os.path.join(state, "ledger.json"), encoding="utf-8") as f:
        check(set(json.load(f)["targets"]) == {"fuzz_decode"}, "only the target named was run")
    check(a["runs"] == 1 and b["runs"] == 2, "the ledger counts the runs")
    check(0 < a["cpu_seconds"] < b["cpu_seconds"], "CPU time accumulates")
    check(0 < a["executions"] < b["executions"], "executions accumulate")
    corpus = os.path.join(state, "fuzz_decode", "corpus")
    check(b["corpus_files"] > 0 and b["corpus_files"] == len(os.listdir(corpus)),
          "the corpus is kept, and its size recorded")
    stray = [p for p in profraws if os.path.exists(p) and p not in before]
    check(not stray, f"no profile written outside the coverage build: {stray}")
    cov = b.get("coverage") or {}
    check(cov.get("covers") == "apps/dpsctp-decode/" and
          0 < cov.get("lines_covered", 0) < cov.get("lines_total", 0),
          f"coverage of apps/dpsctp-decode/ measured: {cov}")


def crash_kept(src, tmp):
    fake = os.path.join(tmp, "fake-build")
    os.makedirs(os.path.join(fake, "meson-info"))
    seeds, regress = os.path.join(tmp, "stub-seeds"), os.path.join(tmp, "stub-regress")
    os.makedirs(seeds)
    with open(os.path.join(seeds, "seed"), "wb") as f:
        f.write(b"x")
    stub = os.path.join(fake, "stub_fuzzer")
    with open(stub, "w", encoding="utf-8") as f:
        f.write(STUB.format(python=sys.executable))
    os.chmod(stub, 0o755)
    with open(os.path.join(fake, "meson-info", "intro-tests.json"), "w", encoding="utf-8") as f:
        json.dump([{"name": "stub", "suite": ["dpsctp:fuzz"],
                    "cmd": [sys.executable, os.path.join(src, "sctp/fuzz/run_fuzz.py"),
                            "--libfuzzer", stub, "--corpus", seeds, "--seed-format", "files",
                            "--regress", regress, "--seconds", "30"]},
                   {"name": "not_a_target", "suite": ["dpsctp:fuzz"], "cmd": ["true"]}], f)
    state = os.path.join(tmp, "stub-state")
    p = run([sys.executable, os.path.join(src, "tools/fuzz/campaign.py"), "--fuzz-build", fake,
             "--state", state, "--minutes", "0.02", "--no-coverage"])
    check(p.returncode == 1, "a crash fails the campaign (exit 1)")
    check(os.path.exists(os.path.join(regress, "crash-stub")),
          "the crash input is kept in the target's regression directory")
    check("FINDING stub" in p.stdout, "the finding is reported")
    with open(os.path.join(state, "ledger.json"), encoding="utf-8") as f:
        targets = json.load(f)["targets"]
    e = targets.get("stub", {})
    check(e.get("crashes") == 1 and e.get("executions") == 7,
          "the ledger counts the crash and the executions")
    check(sorted(targets) == ["stub"], "a fuzz-suite test that is no target is left out")


def table_rewrite(src, tmp):
    ledger = os.path.join(tmp, "ledger.json")
    with open(ledger, "w", encoding="utf-8") as f:
        json.dump({"targets": {"fuzz_x": {"cpu_seconds": 3725, "executions": 1234567,
                                          "corpus_files": 3, "corpus_bytes": 2048, "runs": 2,
                                          "crashes": 0,
                                          "coverage": {"covers": "x/", "lines_covered": 1,
                                                       "lines_total": 4}}}}, f)
    doc = os.path.join(tmp, "doc.md")
    with open(doc, "w", encoding="utf-8") as f:
        f.write("before\n<!-- fuzz-campaign: begin -->\nold\n<!-- fuzz-campaign: end -->\nafter\n")
    p = run([sys.executable, os.path.join(src, "tools/fuzz/table.py"), ledger, "--md", doc])
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    check(p.returncode == 0 and "old" not in text and text.startswith("before\n") and
          text.endswith("<!-- fuzz-campaign: end -->\nafter\n") and
          "| `fuzz_x` | 1:02:05 | 1,234,567 | 3 (2 KiB) | 25.0 % (1/4 lines of `x/`) | 2 | 0 |"
          in text, "table.py rewrites the table between the markers")
    with open(doc, "w", encoding="utf-8") as f:
        f.write("no markers\n")
    p = run([sys.executable, os.path.join(src, "tools/fuzz/table.py"), ledger, "--md", doc])
    check(p.returncode == 1, "table.py fails on a document without markers")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    src, build = os.path.realpath(args.source), os.path.realpath(args.build)
    with tempfile.TemporaryDirectory(prefix="dpsctp-campaign-test-") as tmp:
        table_rewrite(src, tmp)
        crash_kept(src, tmp)
        devsh_campaign(src, build, tmp)
    print("PASS" if not FAILS else f"FAIL: {len(FAILS)} check(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
