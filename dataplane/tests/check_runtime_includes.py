#!/usr/bin/env python3
"""The runtime's files have one direction (docs/ARCHITECTURE.md, "The runtime's files").

  check_runtime_includes.py DATAPLANE_DIR

Reads the `#include "dataplane/..."` lines of DATAPLANE_DIR/*.c and *.h (a
file and its header are one module: dp_rx.c with dp_rx.h) and fails when
  - the includes form a cycle;
  - a module includes one above it in ORDER (the receive side the worker
    loop's header, the transmit side the receive side's, ...);
  - a dp_* module is missing from ORDER (a new file must be placed);
  - a file outside the runtime (config, vtag, timer_wheel, ...) includes one
    of the runtime's.
Before reading the tree it checks itself on made-up graphs, so that a check
that no longer fails would be seen.
"""
import re
import sys
from pathlib import Path

# Bottom to top: a module may include only modules listed before it.
ORDER = [
    "dp_counters",   # the counter list (no includes of the runtime)
    "dp_impair",     # impairment stages on mbufs
    "dp_route",      # the routing table of several ports (rte_lpm, rte_lpm6)
    "dp_public",     # the core's codes to the public API's
    "dp_types",      # the instance, worker and association structures
    "dp_stage",      # cycles by stage of a poll (--stage-cycles): inline, on dp_types
    "dp_buf",        # payload buffers on mbufs
    "dp_tx",         # transmit: the core's output, the tx batch, the flush
    "dp_opt",        # per-association options (dpsctp_opt.h): values, blocks
    "dp_conn",       # an association: the core's callbacks, life, tables, sends
    "dp_rx",         # receive: L3, CRC, hand-off, demux, the core's input
    "dp_req",        # the request ring
    "dp_worker",     # a worker and its loop: the one caller of rx and the flush
    "dp_stats",      # counters as one flat list
    "dp_telemetry",  # /dpsctp/ commands
    "dp_api",        # the public calls (dpsctp.h)
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"dataplane/([A-Za-z0-9_]+)\.h"', re.M)


def module(path):
    return Path(path).stem


def graph(files):
    """{module: {included module}} from {file name: text}."""
    g = {}
    for name, text in files.items():
        m = module(name)
        g.setdefault(m, set())
        for inc in INCLUDE.findall(text):
            if inc != m:
                g[m].add(inc)
    return g


def problems(g):
    out = []
    rank = {m: i for i, m in enumerate(ORDER)}
    for m, incs in sorted(g.items()):
        runtime = m.startswith("dp_")
        if runtime and m not in rank:
            out.append(f"{m}: not placed in ORDER (check_runtime_includes.py)")
            continue
        for inc in sorted(incs):
            if not inc.startswith("dp_"):
                continue
            if not runtime:
                out.append(f"{m} includes {inc}: only the runtime includes the runtime")
            elif inc not in rank:
                out.append(f"{m} includes {inc}, which is not placed in ORDER")
            elif rank[inc] >= rank[m]:
                out.append(f"{m} includes {inc}, which is above it: {' < '.join(ORDER)}")
    # A cycle, whatever ORDER says (a module listed twice would hide one).
    state = {}

    def visit(m, stack):
        state[m] = 1
        for inc in sorted(g.get(m, ())):
            if state.get(inc) == 1:
                cyc = stack[stack.index(inc):] + [inc] if inc in stack else [m, inc]
                out.append("cycle: " + " -> ".join(cyc))
            elif inc not in state:
                visit(inc, stack + [inc])
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m, [m])
    return out


def self_test():
    good = {
        "dp_rx.c": '#include "dataplane/dp_rx.h"\n#include "dataplane/dp_tx.h"\n',
        "dp_tx.c": '#include "dataplane/dp_tx.h"\n#include "dataplane/dp_types.h"\n',
        "dp_worker.c": '#include "dataplane/dp_rx.h"\n#include "dataplane/dp_tx.h"\n',
        "vtag.c": '#include "dataplane/vtag.h"\n',
    }
    assert problems(graph(good)) == [], problems(graph(good))
    bad = [
        # the transmit side calling back into the worker loop (the old cycle)
        dict(good, **{"dp_tx.c": '#include "dataplane/dp_worker.h"\n'}),
        # the transmit side including the receive side's header
        dict(good, **{"dp_tx.h": '#include "dataplane/dp_rx.h"\n'}),
        # a new runtime file nobody placed
        dict(good, **{"dp_new.c": '#include "dataplane/dp_types.h"\n'}),
        # a foundation file reaching into the runtime
        dict(good, **{"vtag.c": '#include "dataplane/dp_types.h"\n'}),
    ]
    for files in bad:
        assert problems(graph(files)) != [], files
    cyc = problems({"dp_rx": {"dp_tx"}, "dp_tx": {"dp_rx"}})
    assert any(p.startswith("cycle: ") for p in cyc), cyc


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    self_test()
    root = Path(sys.argv[1])
    files = {p.name: p.read_text() for p in sorted(root.glob("*.[ch]"))}
    if not any(n.startswith("dp_") for n in files):
        print(f"no runtime files in {root}")
        return 1
    found = problems(graph(files))
    for p in found:
        print(p)
    if found:
        return 1
    print(f"{len(files)} files, one direction: {' < '.join(ORDER)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
