#!/usr/bin/env python3
"""[dp] The million-association run at CI size: 50,000 associations.

dpsctp-perf --loopback --handshakes 50000 --idle 1 --busy 2 in the default
(data-center) profile, the phases a core network function lives through:
every association established, all of them idle (the heartbeat budget keeps
the rings from filling), traffic on a random 1 % at a time with every
message checked at both ends, then every one shut down cleanly. The same
command with --handshakes 1000000 is the benchmark (docs/PERFORMANCE.md, "A
million associations"); this checks behaviour, never speed:

  - all 50,000 up, the idle window not cut short;
  - --busy: 500 slots, associations taking turns, every ping received and
    echoed by the server and its echo received back, no check failed;
  - every association shut down with SHUTDOWN COMPLETE;
  - the phases reported in order, and the EAL heap the same at the end of
    each: the data path allocates nothing after create, however many
    associations talk.

usage: perf_scale_test.py PATH/TO/dpsctp-perf
"""
import json
import subprocess
import sys

N = 50000
failures = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(name)


def main(perf):
    cmd = [perf, "--no-huge", "--no-pci", "--no-shconf", "-l", "0-1", "-m", "2048",
           "--log-level", "lib.eal:error", "--", "--loopback", "--json",
           "--handshakes", str(N), "--idle", "1", "--busy", "2", "-S", "4"]
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=240)
    print(f"exit {p.returncode}")
    if p.stderr:
        print(p.stderr[-3000:])
    check("exit 0", p.returncode == 0, p.returncode)
    try:
        e = json.loads(p.stdout)["end"]
    except (ValueError, KeyError) as err:
        check("one JSON document", False, f"{err}: {p.stdout[-1000:]}")
        return
    check(f"all {N} up", e.get("handshakes") == N, e.get("handshakes"))
    idle = e.get("idle", {})
    check("idle window whole", idle.get("seconds", 0) >= 0.99 and
          idle.get("stopped_early") is False, idle)

    b = e.get("busy", {})
    print("busy:", json.dumps(b))
    check("busy: 1 % of the associations at a time", b.get("slots") == N // 100, b.get("slots"))
    check("busy: window whole", b.get("seconds", 0) >= 1.99 and b.get("stopped_early") is False, b)
    check("busy: associations took turns", b.get("turns", 0) > b.get("slots", 0) and
          0 < b.get("associations_touched", 0) <= b.get("turns", 0), b)
    sent = b.get("round_trips", 0)
    check("busy: round trips made", sent > 0, b)
    check("busy: every ping received, echoed and its echo back",
          sent == b.get("server_received") == b.get("server_echoed") == b.get("answered"), b)
    check("busy: no message failed a check", b.get("check_failures") == 0, b)

    c = e.get("close", {})
    check("close: every association shut down cleanly",
          c.get("associations") == N and c.get("closed_cleanly") == N, c)

    phases = e.get("phases", [])
    for ph in phases:
        print(f"phase {ph.get('name')}: {ph.get('seconds')} s, heap {ph.get('heap_bytes')}, "
              f"resident {ph.get('resident_bytes')}")
    check("phases in order", [ph.get("name") for ph in phases] ==
          ["handshakes", "idle", "busy", "close"], phases)
    check("phases timed", all(ph.get("seconds", 0) > 0 for ph in phases), phases)
    heaps = {ph.get("heap_bytes") for ph in phases}
    check("heap the same at every phase's end (nothing allocated after create)",
          len(heaps) == 1 and heaps.pop() > 0, phases)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
    if failures:
        print(f"{len(failures)} check(s) failed: {', '.join(failures)}")
        sys.exit(1)
    print("all checks passed")
