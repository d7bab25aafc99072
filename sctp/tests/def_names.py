#!/usr/bin/env python3
"""Every .def list names each row twice, as the enum suffix and as the
counter/wire name, and the two must agree (sctp/def_table.h): the name is
the suffix in lower case, so grepping a name telemetry prints finds the row
and the code that counts it.

  def_names.py SOURCE_ROOT     check every .def file under SOURCE_ROOT

Every line of a .def file that is not a comment is one row,
ROW(NAME, "name", "what it means"); a line of another shape fails the check
rather than being skipped. Names are unique within a list. And every C
file that builds a name or description table from a .def does it with
SCTP_DEF_ROW (a row macro whose expansion uses the name or the description
must be SCTP_DEF_ROW), so no list has a hand-made copy that could drift.
"""
import re
import subprocess
import sys
from pathlib import Path

ROW = re.compile(r'^(\w+)\((\w+), "([^"\\]*)", "((?:[^"\\]|\\.)*)"\)$')
DEFINE = re.compile(r'^#define (\w+)\((\w+), (\w+), (\w+)\)\s*(.*)$')


def source_files(root, *patterns):
    """The tracked files matching patterns, or, without git, those outside build trees."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", *patterns],
                             check=True, capture_output=True, text=True).stdout
        return sorted(root / p for p in out.split("\0") if p and (root / p).exists())
    except (OSError, subprocess.CalledProcessError):
        return sorted(p for pat in patterns for p in root.rglob(pat)
                      if not any(part.startswith(("build", ".")) for part in
                                 p.relative_to(root).parts))


def hand_tables(root, macros):
    """Row macros of a .def defined to build a name/description table by hand."""
    problems = []
    for path in source_files(root, "*.c", "*.h"):
        for no, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = DEFINE.match(line.strip())
            if not m or m.group(1) not in macros:
                continue
            _, _, name, why, body = m.groups()
            uses = set(re.findall(r"\w+", body)) & {name, why}
            if uses and not body.startswith("SCTP_DEF_ROW("):
                problems.append(f"{path}:{no}: {m.group(1)} builds a table by hand: "
                                "use SCTP_DEF_ROW (sctp/def_table.h)")
    return problems


def check_file(path):
    """(rows, problems) of one .def file."""
    problems, rows = [], []
    in_comment = False
    for no, line in enumerate(path.read_text().splitlines(), 1):
        s = line.strip()
        if in_comment:
            in_comment = "*/" not in s
            continue
        if not s:
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        m = ROW.match(s)
        if not m:
            problems.append(f"{path}:{no}: not a row ROW(NAME, \"name\", \"why\"): {s[:60]}")
            continue
        macro, ident, name, why = m.groups()
        rows.append((no, macro, ident, name))
        if name != ident.lower():
            problems.append(f"{path}:{no}: {macro}({ident}, \"{name}\"): the name must be "
                            f"\"{ident.lower()}\" (or the enum {name.upper()})")
        if not why:
            problems.append(f"{path}:{no}: {ident} has no description")
    if not rows:
        problems.append(f"{path}: no rows")
    macros = {r[1] for r in rows}
    if len(macros) > 1:
        problems.append(f"{path}: rows of several macros: {', '.join(sorted(macros))}")
    seen = {}
    for no, _, ident, name in rows:
        for key in (ident, name):
            if key in seen:
                problems.append(f"{path}:{no}: {key} repeats line {seen[key]}")
            seen[key] = no
    return rows, problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(sys.argv[1]).resolve()
    files = source_files(root, "*.def")
    if not files:
        print(f"no .def file under {root}")
        return 1
    problems, total, macros = [], 0, set()
    for path in files:
        rows, p = check_file(path)
        total += len(rows)
        problems += p
        macros |= {r[1] for r in rows}
    problems += hand_tables(root, macros)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(files)} .def files, {total} rows: every name is its enum suffix in lower case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
