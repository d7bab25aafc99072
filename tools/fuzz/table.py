#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The fuzzing campaign's table, from its ledger (tools/fuzz/campaign.py).

  table.py LEDGER                 print the markdown table
  table.py LEDGER --md FILE       rewrite FILE's table between the markers
                                  <!-- fuzz-campaign: begin --> and
                                  <!-- fuzz-campaign: end -->

One row per target: CPU time spent fuzzing so far (all runs added up),
executions, corpus size after the last minimized merge, line coverage of
the code the target aims at (the directory above its fuzz/ directory) from
replaying that corpus in the coverage build, and the runs and crashes.
Exit 0, 1 when the ledger or the markers are missing.
"""
import argparse
import json
import re
import sys

BEGIN = "<!-- fuzz-campaign: begin -->"
END = "<!-- fuzz-campaign: end -->"


def hms(seconds):
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def rows(ledger):
    out = []
    for name, t in sorted(ledger.get("targets", {}).items()):
        cov = t.get("coverage") or {}
        if cov.get("lines_total"):
            pct = 100.0 * cov["lines_covered"] / cov["lines_total"]
            covtext = (f"{pct:.1f} % ({cov['lines_covered']}/{cov['lines_total']} lines "
                       f"of `{cov['covers']}`)")
        else:
            covtext = "not measured"
        out.append((name, hms(t.get("cpu_seconds", 0)), f"{t.get('executions', 0):,}",
                    f"{t.get('corpus_files', 0)} ({t.get('corpus_bytes', 0) / 1024:.0f} KiB)",
                    covtext, str(t.get("runs", 0)), str(t.get("crashes", 0))))
    return out


def markdown(ledger):
    head = ("| Target | CPU time (h:mm:ss) | Executions | Corpus (files) | Line coverage "
            "| Runs | Crashes |\n|---|---:|---:|---:|---|---:|---:|\n")
    return head + "".join("| `" + r[0] + "` | " + " | ".join(r[1:]) + " |\n"
                          for r in rows(ledger))


def rewrite(path, text):
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    rx = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
    if not rx.search(doc):
        return False
    doc = rx.sub(lambda _: BEGIN + "\n" + text + END, doc)
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ledger")
    ap.add_argument("--md", help="rewrite this file's table between the markers")
    args = ap.parse_args()
    try:
        with open(args.ledger, encoding="utf-8") as f:
            ledger = json.load(f)
    except (OSError, ValueError) as e:
        print(f"table.py: {args.ledger}: {e}", file=sys.stderr)
        return 1
    text = markdown(ledger)
    if args.md:
        if not rewrite(args.md, text):
            print(f"table.py: {args.md}: no {BEGIN} ... {END}", file=sys.stderr)
            return 1
        print(f"table.py: {args.md} rewritten ({len(ledger.get('targets', {}))} targets)")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
