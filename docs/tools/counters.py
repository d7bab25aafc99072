#!/usr/bin/env python3
"""docs/COUNTERS.md's tables, from the lists in the code (one source of truth).

  counters.py print          print the tables (paste between the markers)
  counters.py check FILE     fail when FILE misses a counter the code has
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worker():
    text = (ROOT / "dataplane/dp_counters.h").read_text()
    block = text[text.index("#define DP_WORKER_COUNTERS(X)"):]
    block = block[:block.index("struct dp_worker_counters")]
    # A description may be several string literals, across continued lines.
    out = []
    for m in re.finditer(r'X\((\w+),((?:[\s\\]*"(?:[^"\\]|\\.)*")+)[\s\\]*\)', block):
        out.append((m.group(1), "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))))
    return out


def from_def(path, macro):
    text = (ROOT / path).read_text()
    out = []
    # Rows start a line; the example in a file's comment does not.
    for m in re.finditer(r'^' + macro + r'\(\w+,\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)"\)', text,
                         re.M):
        out.append((m.group(1), m.group(2)))
    return out


def event_order_problems():
    """sctp/assoc_event.def must list struct sctp_assoc_counters's fields after
    drops[], in order, by name: the runtime reads event i as the i-th word
    after the discards (sctp/assoc_counters.c)."""
    text = (ROOT / "sctp/assoc.h").read_text()
    body = text[text.index("struct sctp_assoc_counters {"):]
    body = re.sub(r"/\*.*?\*/", "", body[:body.index("};")], flags=re.S)
    fields = re.findall(r"uint64_t\s+(\w+)\s*;", body)
    rows = [n for n, _ in from_def("sctp/assoc_event.def", "SCTP_ASSOC_EVENT")]
    if fields != rows:
        return [f"sctp/assoc_event.def rows {rows} differ from the fields {fields}"]
    return []


def tables():
    parts = []
    sections = [
        ("Worker", "", worker()),
        ("L3 drops (`drivers/net/l3_drop.def`)", "l3.",
         from_def("drivers/net/l3_drop.def", "DPSCTP_L3_DROP")),
        ("Endpoint drops and answers (`sctp/endpoint_drop.def`)", "ep.",
         from_def("sctp/endpoint_drop.def", "SCTP_EP_DROP")),
        ("Association discards (`sctp/assoc_drop.def`)", "assoc.",
         from_def("sctp/assoc_drop.def", "SCTP_ASSOC_DROP")),
        ("Association events (`sctp/assoc_event.def`)", "assoc.",
         from_def("sctp/assoc_event.def", "SCTP_ASSOC_EVENT")),
    ]
    for title, prefix, rows in sections:
        parts.append(f"### {title}\n\n| counter | meaning |\n|---|---|")
        for name, why in rows:
            parts.append(f"| `{prefix}{name}` | {why.replace('|', '/')} |")
        parts.append("")
    return "\n".join(parts), [p + n for _, p, rows in sections for n, _ in rows]


def main():
    body, names = tables()
    if len(sys.argv) >= 2 and sys.argv[1] == "print":
        print(body)
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        doc = Path(sys.argv[2]).read_text()
        missing = [n for n in names if f"`{n}`" not in doc]
        # A renamed counter must not live on under its old name.
        l3_events = re.findall(r'\{ "(\w+)", offsetof\(struct dpsctp_l3_counters',
                               (ROOT / "drivers/net/l3.c").read_text())
        known = set(names) | {"l3." + n for n in l3_events}
        stale = sorted({n for n in re.findall(r"`((?:l3|ep|assoc)\.[a-z0-9_]+)`", doc)
                        if n not in known})
        order = event_order_problems()
        if order:
            print("\n".join(order))
            return 1
        if missing or stale:
            if missing:
                print("COUNTERS.md lacks:", ", ".join(missing))
            if stale:
                print("COUNTERS.md names counters the code does not have:", ", ".join(stale))
            print("regenerate: python3 docs/tools/counters.py print")
            return 1
        print(f"{len(names)} counters documented")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
