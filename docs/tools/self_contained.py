#!/usr/bin/env python3
"""The repository stands alone: no tracked file reads or cites a path outside it.

A person who clones the repository has nothing beside it, so a file that
names the folder the project's early design notes and capture corpus came
from, or that design document, points at something they do not have. The
corpus is in tests/corpus/pcap; the design decisions are in
docs/ARCHITECTURE.md ("Design decisions"). Nor may a file cite an issue of
the project's tracker by number (the word and a number): the tracker is not in the
clone either, so a comment or a document says what it means instead.

usage: self_contained.py SOURCE_DIR     exit 0 clean, 1 with each offending line
"""
import os
import re
import subprocess
import sys

# Built from pieces so that this file does not match itself.
PATTERNS = ["../" + "shared", "DESIGN" + ".md", "shared/" + "corpus"]
# The word, singular or plural, either case, then a number; captures' provenance notes
# (tests/corpus/pcap/SOURCES.md) cite other projects' trackers by URL, and a
# URL is a path the reader can follow.
ISSUE = re.compile(r"(?<![/#\w])[Ii]ssues? #?[0-9]+(?![0-9])")


def tracked_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout (a release tarball): every file under src.
        files = []
        for root, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(root, n), src) for n in names]
        return files


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    src = sys.argv[1]
    bad = 0
    for rel in tracked_files(src):
        path = os.path.join(src, rel)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"\0" in data[:4096]:
            continue  # captures and images
        for no, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for p in PATTERNS:
                if p in line:
                    print("%s:%d: names %s: %s" % (rel, no, p, line.strip()[:120]))
                    bad += 1
            m = ISSUE.search(line)
            if m and "://" not in line:
                print("%s:%d: cites the tracker (%s): %s" % (rel, no, m.group(0),
                                                              line.strip()[:120]))
                bad += 1
    print("self_contained: %s" % ("%d references outside the repository" % bad if bad
                                  else "no file names a path outside the repository"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
