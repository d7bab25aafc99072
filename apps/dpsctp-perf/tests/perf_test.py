#!/usr/bin/env python3
"""[dp] dpsctp-perf end to end: runs the tool and checks what it reports.

Behaviour only, never speed: every message sent arrives (sent == received,
no order errors), the JSON document has the keys scripts rely on
(docs/PERF_TOOL.md), latency quantiles are ordered, pacing never exceeds its target,
handshake mode opens exactly N associations, a PR-SCTP policy on a lossy
link abandons messages and the run still completes, bad usage exits 2; and two
processes over net_memif (server -s -1, client -c) agree on the count
without any side channel.

usage: perf_test.py PATH/TO/dpsctp-perf
"""
import json
import os
import subprocess
import sys
import time

EAL = ["--no-huge", "--no-pci", "-m", "1024", "--log-level", "lib.eal:error"]
KEYS = [
    "end.sum_sent.bytes", "end.sum_sent.messages", "end.sum_received.bytes",
    "end.sum_received.messages", "end.sum_received.bits_per_second",
    "end.sum_received.messages_per_second", "end.sum_received.packets_per_second",
    "end.cycles_per_message.sender", "end.cycles_per_message.receiver", "end.retransmits",
]
failures = []


def get(doc, dotted):
    for k in dotted.split("."):
        if not isinstance(doc, dict) or k not in doc:
            raise KeyError(dotted)
        doc = doc[k]
    return doc


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(name)


def run(perf, lcores, args, timeout=90, extra_eal=()):
    cmd = [perf, *EAL, "--no-shconf", "-l", lcores, *extra_eal, "--", *args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    print("$ " + " ".join(cmd) + f"  -> {p.returncode}")
    if p.returncode != 0:
        print(p.stdout[-3000:], p.stderr[-3000:])
    return p


def run_json(perf, name, lcores, args, want_rc=0):
    p = run(perf, lcores, ["--loopback", "--json", *args])
    check(f"{name}: exit {want_rc}", p.returncode == want_rc, f"exit {p.returncode}")
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        check(f"{name}: one JSON document on stdout", False, f"{e}: {p.stdout[:500]}")
        return None
    return doc


def traffic_checks(name, doc):
    for k in KEYS:
        try:
            get(doc, k)
        except KeyError:
            check(f"{name}: key {k}", False, "missing")
            return
    sent, recv = get(doc, "end.sum_sent.messages"), get(doc, "end.sum_received.messages")
    check(f"{name}: messages sent > 0", sent > 0, sent)
    check(f"{name}: every message sent was received", sent == recv, f"{sent} != {recv}")
    check(f"{name}: bytes agree", get(doc, "end.sum_sent.bytes") == get(doc, "end.sum_received.bytes"))
    check(f"{name}: no order errors", get(doc, "end.errors") == 0, get(doc, "end.errors"))
    check(f"{name}: cycles per message measured", get(doc, "end.cycles_per_message.sender") > 0)


def main():
    perf = sys.argv[1]

    # Two lcores: one end each. 1452-byte messages, zero copy.
    doc = run_json(perf, "1452 B", "0-1", ["-t", "1", "-l", "1452", "-i", "0.5"])
    if doc:
        traffic_checks("1452 B", doc)
        check("1452 B: intervals kept", len(doc["intervals"]) >= 1)
        check("1452 B: one lcore per end", doc["start"]["lcores"] == "one lcore per end")

    # Small messages, several associations and streams, unordered, one lcore.
    doc = run_json(perf, "64 B -P 4 -S 8 -u", "0", ["-t", "1", "-l", "64", "-P", "4", "-S", "8", "-u"])
    if doc:
        traffic_checks("64 B -P 4 -S 8 -u", doc)
        check("one lcore polls both", doc["start"]["lcores"] == "one lcore polls both ends")

    # Messages larger than an mbuf (fragmented on the wire) over 3 streams, ordered.
    doc = run_json(perf, "9000 B -S 3", "0-1", ["-t", "1", "-l", "9000", "-S", "3"])
    if doc:
        traffic_checks("9000 B -S 3", doc)

    # Ping-pong: quantiles in order.
    doc = run_json(perf, "ping", "0-1", ["-t", "1", "-l", "64", "--ping"])
    if doc:
        try:
            lat = get(doc, "end.latency_us")
            q = [lat[k] for k in ("p50", "p90", "p99", "p999", "max")]
            check("ping: latency keys", True)
            check("ping: p50 <= p90 <= p99 <= p99.9 <= max", q == sorted(q) and q[0] > 0, q)
            check("ping: samples", lat["samples"] > 0)
        except KeyError as e:
            check("ping: latency keys", False, str(e))

    # Pacing: the received rate never exceeds the target by more than 5 %.
    doc = run_json(perf, "rate 1g", "0-1", ["-t", "1", "--rate", "1g"])
    if doc:
        traffic_checks("rate 1g", doc)
        r = doc["end"].get("rate", {})
        check("rate 1g: verdict present", "sustained" in r, r)
        if "target_messages_per_second" in r:
            mps = get(doc, "end.sum_received.messages_per_second")
            check("rate 1g: not above the target", mps <= 1.05 * r["target_messages_per_second"],
                  f"{mps} > {r['target_messages_per_second']}")

    # Loss: retransmissions, still nothing lost.
    doc = run_json(perf, "impair 2%", "0-1", ["-t", "1", "-l", "1000", "--impair", "loss=2%,seed=5"])
    if doc:
        traffic_checks("impair 2%", doc)
        check("impair 2%: retransmissions", get(doc, "end.retransmits") > 0)

    # PR-SCTP: a 1 ms lifetime on a link that loses 5 %: messages are
    # abandoned (SEND_FAILED with the policy, FORWARD TSN sent), the receiver
    # sees gaps, not order errors, and gets no more than was sent; the run
    # drains and closes (exit 0). Without a policy the same keys say nothing
    # was abandoned.
    doc = run_json(perf, "pr ttl 1", "0-1", ["-t", "1", "-l", "1000", "--impair", "loss=5%,seed=5",
                                             "--pr-policy", "ttl", "--pr-value", "1"])
    if doc:
        try:
            pr = get(doc, "end.pr_sctp")
            sent, recv = get(doc, "end.sum_sent.messages"), get(doc, "end.sum_received.messages")
            check("pr ttl 1: negotiated", "pr-sctp" in get(doc, "end.extensions").split(","),
                  get(doc, "end.extensions"))
            check("pr ttl 1: the policy in the report", pr["policy"] == "ttl" and
                  pr["value"] == 1 and get(doc, "start.test.pr_policy") == "ttl", pr)
            check("pr ttl 1: messages abandoned", pr["abandoned_messages"] > 0 and
                  pr["abandoned_bytes"] >= pr["abandoned_messages"] * 1000, pr)
            check("pr ttl 1: FORWARD TSN sent", pr["forward_tsn_sent"] > 0, pr)
            check("pr ttl 1: received no more than sent, the rest abandoned",
                  0 < recv <= sent <= recv + pr["abandoned_messages"],
                  f"sent {sent}, received {recv}, abandoned {pr['abandoned_messages']}")
            check("pr ttl 1: gaps, not order errors", get(doc, "end.errors") == 0 and
                  0 < pr["receiver_skipped"] <= sent - recv, pr)
            check("pr ttl 1: goodput is what was received",
                  pr["goodput_bps"] == get(doc, "end.sum_received.bits_per_second"), pr)
        except KeyError as e:
            check("pr ttl 1: keys", False, str(e))
    # Not negotiated (--extensions none): the same loss, a policy that would
    # abandon at the first loss, and every message still arrives.
    doc = run_json(perf, "pr none", "0", ["-t", "0.5", "-l", "1000", "--extensions", "none",
                                          "--impair", "loss=5%,seed=5", "--pr-policy", "rtx",
                                          "--pr-value", "0"])
    if doc:
        traffic_checks("pr rtx, not negotiated", doc)
        check("pr rtx, not negotiated: sent reliably", get(doc, "end.extensions") == "none" and
              get(doc, "end.pr_sctp.abandoned_messages") == 0, get(doc, "end.pr_sctp"))

    # Head-of-line blocking (docs/PERF_TOOL.md): 64-byte pings on stream 0
    # every 200 us beside 1 MiB messages (mbuf chains) paced on stream 1, with
    # I-DATA and with DATA. Every message arrives, the pings are measured both
    # ways (RTT/2 and one way), the negotiated set and the scheduler are
    # reported; --sched reaches the associations.
    hol = ["-t", "1", "-l", "1048576", "-S", "2", "--sndbuf", "4m", "--rcvbuf", "4m",
           "--rate", "200m", "--ping", "--ping-length", "64", "--ping-interval", "200"]
    for name, ext, sched, want_idata in (("hol i-data", "pr-sctp,i-data", "rr", True),
                                         ("hol data", "pr-sctp", "fcfs", False)):
        doc = run_json(perf, name, "0-1", [*hol, "--extensions", ext, "--sched", sched])
        if not doc:
            continue
        traffic_checks(name, doc)
        try:
            got = get(doc, "end.extensions").split(",")
            check(f"{name}: i-data {'negotiated' if want_idata else 'not negotiated'}",
                  ("i-data" in got) == want_idata and "pr-sctp" in got, got)
            check(f"{name}: scheduler {sched}", get(doc, "end.sched") == sched,
                  get(doc, "end.sched"))
            check(f"{name}: ping size and interval", get(doc, "start.test.ping_bytes") == 64 and
                  get(doc, "start.test.ping_interval_us") == 200 and
                  get(doc, "start.test.message_bytes") == 1048576, doc["start"]["test"])
            lat, one = get(doc, "end.latency_us"), get(doc, "end.one_way_latency_us")
            check(f"{name}: pings measured", lat["samples"] > 0 and one["samples"] > 0,
                  f"{lat} {one}")
            q = [one[k] for k in ("p50", "p90", "p99", "p999", "max")]
            check(f"{name}: one-way quantiles ordered", q == sorted(q) and q[0] > 0, q)
            bulk = get(doc, "end.sum_sent.bytes") - 64 * get(doc, "end.sum_sent.messages")
            check(f"{name}: bulk messages sent", bulk >= 1048576, bulk)
        except (KeyError, AttributeError) as e:
            check(f"{name}: keys", False, str(e))

    # Stream reconfiguration while data flows (RFC 6525): one of 4 bulk
    # streams reset every 20 ms, the others carrying data meanwhile. Every
    # reset is performed and seen by the receiver, and every message still
    # arrives in order on its stream (the seq in perf's header goes on
    # across a reset). Without RE-CONFIG negotiated the call is refused,
    # counted, and the run goes on.
    doc = run_json(perf, "resets", "0-1", ["-t", "1", "-S", "4", "--reset-every", "20"])
    if doc:
        traffic_checks("resets", doc)
        r = get(doc, "end.stream_resets")
        check("resets: negotiated", "reconfig" in get(doc, "end.extensions").split(","),
              get(doc, "end.extensions"))
        check("resets: performed, seen by the receiver, none denied",
              r["performed"] >= 5 and r["receiver_saw"] == r["performed"] and
              r["denied"] == 0 and r["refused"] == 0, r)
        check("resets: round trips measured", 0 < r["rtt_us"]["p50"] <= r["rtt_us"]["max"], r)
    doc = run_json(perf, "resets, not negotiated", "0-1",
                   ["-t", "1", "-S", "4", "--reset-every", "20", "--extensions",
                    "pr-sctp,i-data"])
    if doc:
        traffic_checks("resets, not negotiated", doc)
        r = get(doc, "end.stream_resets")
        check("resets, not negotiated: refused once, none performed",
              r["performed"] == 0 and r["refused"] == 1 and r["receiver_saw"] == 0, r)

    # --stages: both ends' cycles by stage, every stage named, the per-packet
    # figures adding up to the stage cycles over the packets.
    doc = run_json(perf, "stages", "0-1", ["-t", "1", "-l", "64", "--burst", "1", "--stages"])
    if doc:
        traffic_checks("stages", doc)
        st = get(doc, "end.stages")
        names = ["rx_burst", "rx_copy", "l3", "crc", "parse", "lookup", "core", "deliver",
                 "app", "rearm", "tx_build", "tx_burst", "timers", "requests", "rx_free",
                 "idle", "other"]
        for who in ("client", "server"):
            e = st.get(who, {})
            check("stages: %s names every stage" % who, all(n in e for n in names), e)
            check("stages: %s counted packets" % who, e.get("packets", 0) > 0, e)
            check("stages: %s cycles per packet consistent" % who,
                  all(abs(e[n]["cycles"] / e["packets"] - e[n]["cycles_per_packet"]) < 0.1
                      for n in names if n in e), e)
        check("stages: the server checked CRC32c and delivered",
              st["server"]["crc"]["entries"] > 0 and st["server"]["deliver"]["entries"] > 0, st)
        check("stages: TSC read cost measured", 0 < st["tsc_read_cycles"] < 1000, st)

    # Both ways.
    doc = run_json(perf, "bidir", "0-1", ["-t", "1", "--bidir"])
    if doc:
        traffic_checks("bidir", doc)
        rev = doc["end"].get("reverse", {})
        check("bidir: the server sent back", rev.get("messages", 0) > 0, rev)

    # Handshakes: exactly N associations, memory figure present. The RFC
    # profile: its 1 s RTO.Initial keeps a CI machine that stalls a process for
    # 10 ms (the data-center profile's) from making this a retransmission test,
    # and its 30 s heartbeat keeps 2,000 idle associations quiet.
    doc = run_json(perf, "handshakes", "0-1", ["--handshakes", "2000", "--profile", "rfc"])
    if doc:
        e = doc["end"]
        check("handshakes: all 2000 up", e.get("handshakes") == 2000, e.get("handshakes"))
        check("handshakes: rate and memory", e.get("handshakes_per_second", 0) > 0 and
              e.get("memory_bytes_per_assoc", 0) > 0, e)

    # --idle: 1,000 idle associations in the data-center profile want 20,000
    # heartbeats a second each way; --hb-rate 5000 holds each end to it.
    # PLPMTUD off: its probes are HEARTBEATs too (tx_heartbeats) and not idle
    # heartbeats.
    doc = run_json(perf, "idle heartbeats", "0-1",
                   ["--handshakes", "1000", "--idle", "1", "--hb-rate", "5000",
                    "--plpmtud", "off"])
    if doc:
        e = doc["end"]
        idle = e.get("idle", {})
        check("idle: all 1000 up, a window measured",
              e.get("handshakes") == 1000 and idle.get("seconds", 0) >= 0.99 and
              idle.get("stopped_early") is False, e)
        for end in ("client", "server"):
            x = idle.get(end, {})
            # Probes of suspect paths (a stalled poller's heartbeats time
            # out) go whatever the budget; the idle ones keep to it.
            idle_hbs = x.get("heartbeats_per_s", 0) - x.get("probes_per_s", 0)
            check(f"idle: {end} keeps to --hb-rate",
                  0 < idle_hbs <= 5000 * 1.01 + 2 and
                  x.get("deferred_per_s", 0) > 0 and x.get("acks_per_s", 0) > 0, x)
        check("idle: cycles per heartbeat", idle.get("cycles_per_heartbeat", 0) > 0, idle)

    # --memory: the server end alone, sized, measured, gone.
    p = run(perf, "0", ["--loopback", "--memory", "--max-assocs", "2000", "--json"])
    try:
        e = json.loads(p.stdout)["end"]
        check("memory: sized for 2000", e["memory_sized_for_assocs"] == 2000, e)
        check("memory: bytes per association", e["memory_bytes_per_assoc"] > 0 and
              e["memory_total_bytes"] >= 2000 * e["memory_bytes_per_assoc"] * 0.99, e)
        # At the margin: an association block, a data block and more, not the mbuf pool.
        check("memory: at the margin", 4000 < e["memory_marginal_bytes_per_assoc"] <
              e["memory_bytes_per_assoc"], e)
    except (ValueError, KeyError) as err:
        check("memory: JSON", False, str(err))

    # A --max-assocs too small for the test is raised to -P + 16, and said so.
    p = run(perf, "0", ["--loopback", "--memory", "--max-assocs", "8", "--json"])
    try:
        e = json.loads(p.stdout)["end"]
        check("memory: --max-assocs 8 raised to 17", e["memory_sized_for_assocs"] == 17, e)
    except (ValueError, KeyError) as err:
        check("memory: JSON", False, str(err))
    check("memory: the raise said on stderr",
          "--max-assocs 8 raised to 17" in p.stderr, p.stderr[-500:])

    # Usage errors exit 2 with a message.
    for bad in (["--loopback", "-l", "4"], ["-s", "--ping"], ["--loopback", "-s"], [],
                ["-s", "--memory"]):
        p = run(perf, "0", bad, timeout=30)
        check(f"usage {' '.join(bad) or '(none)'}: exit 2", p.returncode == 2, p.returncode)
    # Bad numbers are refused with the option and its bounds, never clamped or wrapped.
    for bad, said in ((["-S", "70000"], "--streams 70000: out of range (want 1..1024)"),
                      (["-P", "-1"], "--parallel -1: not a number (want 1..65536)"),
                      (["-n"], "unknown option -n"),
                      (["-t", "1e400"], "--time 1e400: not a number"),
                      (["--burst", "99999999999999999999"], "--burst 99999999999999999999: "
                       "not a number (want 1..1024)"),
                      (["--pr-policy", "sometimes"], "--pr-policy sometimes: want ttl or rtx or prio"),
                      (["--pr-policy", "ttl"], "--pr-policy ttl needs --pr-value MS"),
                      (["--pr-value", "3"], "--pr-value 3 is a PR-SCTP policy's value: with "
                       "--pr-policy"),
                      (["--pr-policy", "rtx", "--pr-value", "4294967296"],
                       "--pr-value 4294967296: out of range (want 0..4294967295)"),
                      (["--pr-policy", "prio", "--handshakes", "5"],
                       "--pr-policy applies to data: not with --handshakes"),
                      (["--ping-length", "64"], "--ping-length 64 is the size of --ping's "
                       "messages: with --ping"),
                      (["--ping", "--ping-length", "65001"],
                       "--ping-length 65001: out of range (want 16..65000)"),
                      (["--ping-interval", "100"], "--ping-interval paces --ping's messages: "
                       "with --ping"),
                      (["--ping", "--ping-interval", "0"],
                       "--ping-interval 0: out of range"),
                      (["-l", "1048576"], "-l 1048576 is longer than the send buffer "
                       "(--sndbuf 262144)"),
                      (["--extensions", "pr-sctp,i-dada"], "unknown extension 'i-dada'"),
                      (["--sched", "lottery"], "--sched 'lottery': unknown"),
                      (["--reset-every", "0"], "--reset-every 0: out of range"),
                      (["--ping", "--reset-every", "5"], "--reset-every with --ping needs -S 2 "
                       "or more"),
                      (["--idle", "1"], "--idle needs --handshakes and --loopback"),
                      (["--busy", "1"], "--busy needs --handshakes and --loopback"),
                      (["--handshakes", "5", "--busy-share", "5"],
                       "--busy-share is the share --busy keeps busy: with --busy"),
                      (["--handshakes", "5", "--busy", "1", "--busy-share", "0"],
                       "--busy-share 0: out of range"),
                      (["--handshakes", "5", "--reset-every", "5"],
                       "--reset-every resets the client's data streams")):
        p = run(perf, "0", ["--loopback", *bad], timeout=30)
        check(f"usage {' '.join(bad)}: exit 2, said", p.returncode == 2 and said in p.stderr,
              f"{p.returncode} {p.stderr[-300:]}")
    # Through the sidecar one ping is in flight at a time: refused before
    # anything is attached.
    p = subprocess.run([perf, "--sidecar", "/nonexistent.sock", "-c", "10.0.0.2", "--ping",
                        "--ping-interval", "100"], capture_output=True, text=True, timeout=30)
    check("usage --sidecar --ping-interval: exit 2, said", p.returncode == 2 and
          "--ping-interval: not with --sidecar" in p.stderr, f"{p.returncode} {p.stderr[-300:]}")
    p = run(perf, "0", ["-h"], timeout=30)
    check("-h: exit 0 with the options", p.returncode == 0 and "--handshakes" in p.stdout)

    # Two processes over net_memif: -s -1 and -c, no side channel.
    tag = f"dpp{os.getpid()}"
    sock = f"/tmp/{tag}.sock"
    port = f"net_memif0,socket={sock},socket-abstract=no,id=0"
    server = None
    try:
        server = subprocess.Popen(
            [perf, *EAL, "-l", "0", f"--file-prefix={tag}s", "--", "--port", port + ",role=server",
             "--ip", "10.0.0.2/24", "-s", "-1", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(100):
            if os.path.exists(sock) or server.poll() is not None:
                break
            time.sleep(0.05)
        check("memif: server socket", os.path.exists(sock))
        client = subprocess.run(
            [perf, *EAL, "-l", "0", f"--file-prefix={tag}c", "--", "--port", port + ",role=client",
             "--ip", "10.0.0.1/24", "-c", "10.0.0.2", "-t", "1", "-l", "700", "-S", "4", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        check("memif: client exit 0", client.returncode == 0, client.stderr[-2000:])
        out, errs = server.communicate(timeout=30)
        check("memif: server -1 exits 0 after the association", server.returncode == 0,
              errs[-2000:])
        server = None
        c, s = json.loads(client.stdout), json.loads(out)
        sent, recv = get(c, "end.sum_sent.messages"), get(s, "end.sum_received.messages")
        check("memif: the server received every message the client sent", sent == recv and sent > 0,
              f"{sent} vs {recv}")
        check("memif: the client reports acknowledged data",
              get(c, "end.sum_received.acknowledged_only") is True)
    except (ValueError, subprocess.TimeoutExpired) as e:
        check("memif: run", False, str(e))
    finally:
        if server is not None:
            server.kill()
            server.wait()
        if os.path.exists(sock):
            os.unlink(sock)

    print(f"{len(failures)} failures" + (": " + ", ".join(failures) if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
