#!/usr/bin/env bash
# dev.sh — one entry point for a dpsctp developer on Debian 12.
#
#   ./dev.sh setup   install what is missing (Debian packages), nothing else
#   ./dev.sh build   setup, then configure and build build/ (and build-fuzz/)
#   ./dev.sh run     build build/, then the main demo (no NIC, no hugepages)
#   ./dev.sh test    build, then every test suite (unit, sim, fuzz, dp, interop)
#   ./dev.sh bench   build, then the benchmarks and the end-to-end suite: JSON
#                    into bench/results/, docs/PERFORMANCE.md regenerated
#   ./dev.sh bench-compare [REV]
#                    the data path's figures of REV (default 66be75b, the tree
#                    before the seams refactoring) and of the working tree,
#                    side by side (bench/compare_revs.py; about five minutes)
#   ./dev.sh fuzz [MINUTES] [TARGET...]
#                    a fuzzing campaign: every libFuzzer target of build-fuzz/
#                    (or the TARGETs named) for MINUTES each (default 10;
#                    fractions allowed) on a corpus kept across runs, a crash
#                    kept in the target's regress/ directory (exit 1), a
#                    ledger of CPU time and executions, then line coverage in
#                    a coverage build (tools/fuzz/campaign.py, docs/TESTING.md);
#                    corpora and ledger live in tests/fuzz_campaign/: commit
#                    them after a campaign and the effort adds up
#   ./dev.sh soak [MINUTES]
#                    the soak (default 30 minutes): dpsctpd under 1 % loss,
#                    duplication and reordering, applications killed and
#                    started, the daemon killed and restarted once, the
#                    embedded data plane beside it; every message delivered
#                    once or reported failed, nothing leaked, RSS flat; JSON
#                    summary and RSS curve in build/soak/ (tests/soak/soak.py)
#   ./dev.sh format  reformat the C/C++ sources with the repo's .clang-format
#
# Warnings are errors in every build (CI's included). Environment:
# BUILD_DIR / FUZZ_BUILD_DIR move the build trees; FUZZ_SECONDS sets how long
# each libFuzzer target runs in the fuzz suite (default 30); BENCH_REPETITIONS
# how often each benchmark repeats (default 5; the median is what we quote);
# FUZZ_CAMPAIGN_DIR holds ./dev.sh fuzz's corpora and ledger (default
# tests/fuzz_campaign, tracked; libFuzzer's logs go to build-fuzz/campaign-logs) and FUZZ_COV_BUILD_DIR its coverage build (default
# build-fuzz-cov); DEVSH_NO_INSTALL=1 makes a missing package an error instead of an install
# (the test that runs ./dev.sh run as the README shows it sets it).
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
FUZZ_CAMPAIGN_DIR=${FUZZ_CAMPAIGN_DIR:-tests/fuzz_campaign}
FUZZ_COV_BUILD_DIR=${FUZZ_COV_BUILD_DIR:-build-fuzz-cov}

# Debian 12 packages the build, the tests and the benchmarks need.
PACKAGES=(
	gcc g++ clang libclang-rt-14-dev clang-format meson ninja-build pkg-config python3
	libdpdk-dev dpdk-dev libisal-dev libssl-dev libpcap-dev
	libgtest-dev libbenchmark-dev libusrsctp-dev tshark iproute2 iputils-ping ethtool
	iperf3 python3-matplotlib
	# the ICMP filter of the path MTU namespace test (dataplane/tests/interop/pmtu_ns.py)
	nftables
	# unmodified SCTP programs over libdpsctp-sock (docs/SOCKETS.md): sctp_test, sctp_darn
	lksctp-tools
	# the Linux kernel's SCTP as an interop peer, in a QEMU guest (docs/INTEROP.md)
	libsctp-dev qemu-system-x86 busybox-static
	# instruction counts of two revisions (./dev.sh bench-compare REV --instructions)
	valgrind
	# llvm-profdata and llvm-cov of clang 14: the coverage report of ./dev.sh fuzz
	llvm-14
)

log() { printf '\033[1mdev.sh:\033[0m %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

missing_packages() {
	local p status
	for p in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		[ "$status" = "install ok installed" ] || printf '%s\n' "$p"
	done
}

cmd_setup() {
	command -v dpkg-query >/dev/null || die "this script installs with apt on Debian 12; install by hand: ${PACKAGES[*]}"
	local missing
	missing=$(missing_packages)
	if [ -z "$missing" ]; then
		return 0
	fi
	# shellcheck disable=SC2086
	[ -z "${DEVSH_NO_INSTALL:-}" ] || die "missing packages (DEVSH_NO_INSTALL is set): $(echo $missing)"
	# shellcheck disable=SC2086
	log "installing missing packages: $(echo $missing)"
	if [ "$(id -u)" -ne 0 ]; then
		die "not root; run: sudo apt-get install -y $(echo $missing)"
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || die "apt-get update failed (is a Debian mirror reachable?)"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for: $(echo $missing)"
	missing=$(missing_packages)
	[ -z "$missing" ] || die "still missing after install: $(echo $missing)"
}

configure() {
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >/dev/null || die "meson setup $dir failed"
	fi
}

# The main tree: what the demo runs (no fuzz tree).
build_main() {
	cmd_setup
	configure "$BUILD_DIR" -Dwerror=true
	ninja -C "$BUILD_DIR" >/dev/null || { ninja -C "$BUILD_DIR"; die "build failed"; }
}

# libFuzzer needs clang; the fuzz tree builds the libraries and the fuzz
# targets (no unit tests, no benchmarks) under ASan+UBSan, the data plane
# too (DPDK: fuzz_dp_rx). A tree configured before that (-Ddpdk=disabled)
# is switched over once.
build_fuzz() {
	CC=clang CXX=clang++ configure "$FUZZ_BUILD_DIR" -Dwerror=true -Dfuzz=true \
		-Ddpdk=auto -Dtests=disabled -Dbenchmarks=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false
	if meson introspect --buildoptions "$FUZZ_BUILD_DIR" |
		python3 -c 'import json, sys; sys.exit(not any(o["name"] == "dpdk" and o["value"] == "disabled" for o in json.load(sys.stdin)))'; then
		meson configure "$FUZZ_BUILD_DIR" -Ddpdk=auto >/dev/null || die "meson configure $FUZZ_BUILD_DIR failed"
	fi
	ninja -C "$FUZZ_BUILD_DIR" >/dev/null || { ninja -C "$FUZZ_BUILD_DIR"; die "fuzz build failed"; }
}

cmd_build() {
	build_main
	build_fuzz
}

cmd_run() {
	build_main
	# The main demo: dpsctp-perf --loopback — client and server in one
	# process over a net_ring port pair (no NIC, no hugepages), one lcore
	# each when the machine has two cores — bulk 1452-byte messages, bulk
	# 64-byte messages, then ping-pong latency; then dpsctp-echo's checked
	# echo and what dpsctp-decode sees in the sample capture the build writes.
	# Filters are sed, never head or grep: under pipefail, a reader that
	# stops early fails the writer (141, SIGPIPE) and a grep that selects
	# nothing fails the pipeline; sed reads everything and exits 0, so a
	# pipeline fails exactly when the program does.
	local perf="$BUILD_DIR"/apps/dpsctp-perf/dpsctp-perf
	local echo="$BUILD_DIR"/apps/dpsctp-echo/dpsctp-echo
	local decode="$BUILD_DIR"/apps/dpsctp-decode/dpsctp-decode
	[ -x "$perf" ] || die "$perf was not built (is libdpdk-dev installed?)"
	local lcores=0
	[ "$(nproc)" -ge 2 ] && lcores=0-1
	local eal=(--no-huge --no-pci --no-shconf -l "$lcores" -m 1024 --log-level lib.eal:error)
	local args
	for args in "-t 3 -l 1452" "-t 2 -l 64 -S 8" "-t 1 -l 64 --ping"; do
		log "dpsctp-perf --loopback $args"
		# shellcheck disable=SC2086
		"$perf" "${eal[@]}" -- --loopback $args 2>&1 | sed '/^TELEMETRY/d' ||
			die "dpsctp-perf failed"
	done
	log "dpsctp-echo --loopback -n 20000 -l 1200 --streams 8 (every echo checked)"
	"$echo" "${eal[@]}" -- --loopback -n 20000 -l 1200 --streams 8 2>&1 | sed '/^TELEMETRY/d' ||
		die "dpsctp-echo failed"
	log "dpsctp-decode $BUILD_DIR/docs/sample.pcap (an association, INIT to SHUTDOWN COMPLETE)"
	"$decode" "$BUILD_DIR"/docs/sample.pcap || die "dpsctp-decode failed"
	log "more: $perf -- -h (docs/PERF_TOOL.md); $echo -- -h; $decode --help"
}

cmd_test() {
	cmd_build
	local rc=0
	meson test -C "$BUILD_DIR" --print-errorlogs --num-processes 2 || rc=1
	FUZZ_SECONDS=$FUZZ_SECONDS meson test -C "$FUZZ_BUILD_DIR" --suite fuzz --print-errorlogs \
		--num-processes 2 || rc=1
	return $rc
}

cmd_bench() {
	cmd_build
	mkdir -p bench/results
	local exe name
	for exe in "$BUILD_DIR"/bench/bench_*; do
		[ -f "$exe" ] && [ -x "$exe" ] || continue
		name=$(basename "$exe")
		log "running $name"
		"$exe" --benchmark_format=console --benchmark_out_format=json \
			--benchmark_repetitions="${BENCH_REPETITIONS:-5}" \
			--benchmark_report_aggregates_only=true \
			--benchmark_out="bench/results/$name.json" ||
			die "$name failed"
	done
	# The attacks of docs/SECURITY.md: cost per packet, goodput without and
	# with each (about two minutes; one JSON record per attack).
	local lcores=0
	[ "$(nproc)" -ge 2 ] && lcores=0-1
	log "running attack_bench"
	"$BUILD_DIR"/bench/attack_bench --no-huge --no-pci --no-shconf -m 1024 -l "$lcores" \
		--log-level lib.eal:error --no-telemetry -- --json bench/results/attack.json ||
		die "attack_bench failed"
	# The end-to-end suite: dpsctp-perf against usrsctp, Linux TCP
	# and the raw ceiling, medians of BENCH_REPETITIONS runs (about 15
	# minutes), then docs/PERFORMANCE.md's end-to-end section and plots.
	# Debian's python3 has matplotlib (python3-matplotlib); another python3
	# first on PATH may not.
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	log "running the end-to-end suite (bench/suite/run.py)"
	"$py" bench/suite/run.py --build "$BUILD_DIR" --out bench/results/e2e.json ||
		die "the end-to-end suite ran nothing"
	"$py" bench/suite/report.py --in bench/results/e2e.json --md docs/PERFORMANCE.md --img docs/img ||
		die "report.py failed"
	log "running the sidecar against embedded mode (bench/sidecar/run.py)"
	"$py" bench/sidecar/run.py --build "$BUILD_DIR" --out bench/results/sidecar.json \
		--md docs/PERFORMANCE.md || die "the sidecar benchmark failed"
	log "cycles by stage of a poll (bench/stages/run.py)"
	"$py" bench/stages/run.py --build "$BUILD_DIR" --out bench/results/stages.json \
		--md docs/PERFORMANCE.md || die "the stage benchmark failed"
	log "one worker against two, and against a peer process (bench/scale/run.py)"
	"$py" bench/scale/run.py --build "$BUILD_DIR" --out bench/results/scale.json \
		--md docs/PERFORMANCE.md || die "the scaling benchmark failed"
	log "libdpsctp-sock against dpsctp-perf --sidecar: iperf3, ping-pong (bench/sock/run.py)"
	"$py" bench/sock/run.py --build "$BUILD_DIR" --json bench/results/sock.json \
		--md docs/PERFORMANCE.md >/dev/null || die "the socket library benchmark failed"
	log "path MTU in namespaces: drop to first full message, goodput (pmtu_ns.py --bench)"
	"$py" dataplane/tests/interop/pmtu_ns.py "$BUILD_DIR" --bench \
		--json bench/results/pmtu_ns.json || die "the path MTU benchmark failed"
	log "results in bench/results/*.json; docs/PERFORMANCE.md regenerated"
}

cmd_bench_compare() {
	cmd_setup
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	"$py" bench/compare_revs.py "${1:-66be75b}" "${@:2}"
}

# The campaign: tools/fuzz/campaign.py finds the targets in the fuzz tree
# (its tests of suite fuzz), fuzzes each on its kept corpus, adds the effort
# to the ledger and measures coverage in FUZZ_COV_BUILD_DIR.
cmd_fuzz() {
	local minutes=${1:-10}
	[ $# -eq 0 ] || shift
	[[ $minutes =~ ^[0-9]*\.?[0-9]+$ ]] || die "fuzz: MINUTES is a number, not '$minutes'"
	cmd_setup
	build_fuzz
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	"$py" tools/fuzz/campaign.py --fuzz-build "$FUZZ_BUILD_DIR" --cov-build "$FUZZ_COV_BUILD_DIR" \
		--state "$FUZZ_CAMPAIGN_DIR" --logs "$FUZZ_BUILD_DIR/campaign-logs" --minutes "$minutes" "$@"
}

cmd_soak() {
	local minutes=${1:-30}
	[[ $minutes =~ ^[0-9]*\.?[0-9]+$ ]] || die "soak: MINUTES is a number, not '$minutes'"
	build_main
	local py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	"$py" tests/soak/soak.py --build "$BUILD_DIR" --minutes "$minutes" --out "$BUILD_DIR/soak"
}

cmd_format() {
	git ls-files -z '*.c' '*.h' '*.cc' | xargs -0 clang-format -i
}

case "${1:-}" in
setup) cmd_setup ;;
build) cmd_build ;;
run) cmd_run ;;
test) cmd_test ;;
bench) cmd_bench ;;
bench-compare) cmd_bench_compare "${@:2}" ;;
fuzz) cmd_fuzz "${@:2}" ;;
soak) cmd_soak "${@:2}" ;;
format) cmd_format ;;
-h | --help | help | "")
	awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
	[ -n "${1:-}" ] || exit 1
	;;
*) die "unknown command '$1' (try: setup build run test bench bench-compare fuzz soak format)" ;;
esac
