#!/usr/bin/env python3
"""Count meson test results from testlog.json files and print
'N passed, N failed[, N skipped]'. Exit 1 if anything failed or no test ran.

A missing log counts as one failure: the build or set-up did not get as far
as running that tree's tests.
"""
import json
import sys

PASS = {"OK", "EXPECTEDFAIL"}
SKIP = {"SKIP"}


def main(paths):
    passed = failed = skipped = 0
    for path in paths:
        try:
            with open(path) as f:
                lines = [line for line in f if line.strip()]
        except OSError:
            print(f"count_results: no test log at {path}", file=sys.stderr)
            failed += 1
            continue
        for line in lines:
            entry = json.loads(line)
            result = entry.get("result")
            if result in PASS:
                passed += 1
            elif result in SKIP:
                skipped += 1
            else:
                failed += 1
                print(f"count_results: FAILED {entry.get('name')} ({result})", file=sys.stderr)
    tail = f", {skipped} skipped" if skipped else ""
    print(f"{passed} passed, {failed} failed{tail}")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
