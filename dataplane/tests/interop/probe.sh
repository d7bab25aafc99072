#!/bin/bash
# probe.sh — one interop case by hand (issue 7's harness grows from this):
# a network namespace joined to the host by a veth; dpsctp-echo on the host
# end through net_af_packet, Debian's usrsctp (usrsctp-peer) in the
# namespace; every echoed message checked. Needs root; the namespace and
# veth are removed on every exit.
#
#   probe.sh BUILD_DIR [raw|udp] [usrsctp-client|dpsctp-client] [MSGS] [MAXBYTES]
set -u
B=${1:?build directory}
MODE=${2:-raw}
WHO=${3:-usrsctp-client}
MSGS=${4:-1000}
MAX=${5:-9000}
NS=dpio-$$
H=dpioh$$
N=dpion$$
SRV=
cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip link del "$H" 2>/dev/null
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "probe.sh: needs root (namespaces, veth)"; exit 77; }
ip netns add "$NS" && ip link add "$H" type veth peer name "$N" &&
	ip link set "$N" netns "$NS" && ip link set "$H" up &&
	ip netns exec "$NS" ip link set lo up && ip netns exec "$NS" ip link set "$N" up &&
	ip netns exec "$NS" ip addr add 192.0.2.2/24 dev "$N" || exit 3
# A veth leaves UDP checksums to a NIC that is not there (CHECKSUM_PARTIAL):
# net_af_packet would hand dpsctp datagrams whose checksum was never filled
# in. Make the kernel compute them, as a real NIC would.
ip netns exec "$NS" ethtool -K "$N" tx off >/dev/null 2>&1 ||
	echo "probe.sh: ethtool missing: UDP mode will see unfilled checksums"
CAP=
if [ -n "${CAPTURE:-}" ]; then # CAPTURE=FILE: what crossed the veth, for tshark
	ip netns exec "$NS" tshark -q -i "$N" -w "$CAPTURE" >/dev/null 2>&1 &
	CAP=$!
	sleep 1
fi
DP_UDP=
PEER_UDP=
if [ "$MODE" = udp ]; then
	DP_UDP=--udp-encap
	PEER_UDP=--udp
fi
EAL=(--no-huge --no-pci --no-shconf -l 1 -m 512 --log-level lib.eal:error)
PORT=(--port "net_af_packet0,iface=$H" --ip 192.0.2.1/24 $DP_UDP)
ECHO=$B/apps/dpsctp-echo/dpsctp-echo
PEER=$B/dataplane/tests/interop/usrsctp-peer
if [ "$WHO" = usrsctp-client ]; then
	"$ECHO" "${EAL[@]}" -- "${PORT[@]}" -s &
	SRV=$!
	sleep 1.5
	timeout 120 ip netns exec "$NS" "$PEER" -c 192.0.2.1 $PEER_UDP --echo -n "$MSGS" -l "$MAX" -S 16
	rc=$?
else
	ip netns exec "$NS" "$PEER" -s $PEER_UDP --echo &
	SRV=$!
	sleep 1
	timeout 120 "$ECHO" "${EAL[@]}" -- "${PORT[@]}" -c 192.0.2.2 -n "$MSGS" -l "$MAX" --streams 16
	rc=$?
fi
[ -n "$CAP" ] && sleep 0.5 && kill "$CAP" 2>/dev/null && wait "$CAP" 2>/dev/null
echo "probe.sh: $MODE, $WHO: exit $rc"
exit $rc
