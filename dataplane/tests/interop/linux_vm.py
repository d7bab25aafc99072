#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Linux kernel SCTP as an interop peer, in a QEMU guest (docs/INTEROP.md).

Why this exists: interop.py tests dpsctp against usrsctp; the second real
peer we want is the Linux kernel's SCTP, but the machines here run kernels
without sctp.ko and cannot load it. Debian's own kernel package has the
module, so this script boots that kernel in QEMU with a tiny initramfs
(busybox, the virtio-net and sctp modules, the static peer program as
/peer) and runs the peer there. The guest's NICs are host tap devices that
the caller puts on the bridge of the test topology, so to dpsctp the VM is
just another host on the link.

  linux_vm.py image --dir DIR --peer PATH [--kernel-pkg NAME]
      Build DIR/vmlinuz (and DIR/vmlinux, the same kernel unpacked, which
      boots twice as fast under TCG) and DIR/base.cpio.gz, or keep them when
      the stamp (peer, busybox, this script, kernel package) has not
      changed. The kernel .deb stays in DIR as a download cache.

  linux_vm.py run --dir DIR [--nic IFNAME=ADDR/LEN[,IFNAME=ADDR/LEN]]...
                  [--accel tcg|kvm] [--cpu MODEL] [--boot-timeout S]
                  [--mem MB] [--exec] -- PEER_ARGS...
      Boot the image and run `/peer PEER_ARGS` (with --exec: PEER_ARGS as a
      command line of the guest, e.g. `-- ping -c 3 192.0.2.1`). NIC K is the
      existing host tap IFNAME (guest MAC 52:54:00:4c:56:KK, K in hex); in the guest it
      carries ADDR/LEN. The peer's output lines are printed as they come,
      nothing else on stdout (one line on stderr says how long the boot took).

  linux_vm.py selftest --dir DIR [--accel tcg|kvm] [--cpu MODEL]
                       [--boot-timeout S] [--mem MB]
      In the guest, `/peer -s --echo` against `/peer -c 127.0.0.1 -n 200
      -l 9000 --echo` over loopback.

TCG, not KVM, by default: on the VMs we work on (nested virtualisation,
QEMU 7.2), `-accel kvm -cpu host` stops at once ("failed to set MSR
0x10a"), and with `-cpu host,-arch-capabilities` the kernel's first line
came after 20 s and the guest died at 46 s ("KVM internal error ...
emulation failure"). TCG boots to the peer in 2.2-3 s.

Exit status: image 0 built or up to date, 2 bad usage or a peer/busybox that
is not a static x86-64 executable, 3 apt or the build failed. run: the peer's
own status, 3 when the VM did not reach the peer (boot timeout, QEMU died,
set-up in the guest failed). selftest: 0 both peers exited 0, 1 not, 3 as run.
SIGTERM, SIGINT and SIGHUP kill QEMU and exit 128+signal.
"""
import argparse
import ctypes
import fcntl
import gzip
import hashlib
import ipaddress
import json
import lzma
import os
import re
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import types
import zlib
from collections import deque

QEMU = "qemu-system-x86_64"
BUSYBOX = "/bin/busybox"  # from busybox-static
META_PKG = "linux-image-amd64"  # Debian's "current kernel" package

# The drivers the guest needs; their dependencies come from each module's
# .modinfo. virtio_pci is the bus driver, without it virtio_net binds nothing.
ROOT_MODULES = ("virtio_pci", "virtio_net", "sctp")

# Kernel command line. loglevel=0 after quiet keeps every printk off the
# console, which the peer's output shares. panic=-1 reboots at once on a
# panic (an init that exits, say) and -no-reboot turns that into QEMU
# exiting. edd=off: when the bzImage boots (no PVH vmlinux), its real-mode
# setup code would probe BIOS disks there are none of and say so on the
# serial port. mitigations=off: no speculation workarounds in a throwaway
# guest. Boot time is set by the kernel, not by these: QEMU start to "peer
# start" under TCG on a 2-core Xeon VM, 4 boots each, was 2.2 s with and
# without edd=off and mitigations=off, and tsc=reliable, no_timer_check and
# i8042.* did not change it either (booting the bzImage: 5.2 s).
CMDLINE = "console=ttyS0 quiet loglevel=0 panic=-1 edd=off mitigations=off"

# Lines of the guest's /init that the wrapper acts on; none is shown as peer
# output except the selftest's exit lines.
MARK = b"linux-vm: "
MARK_START = MARK + b"peer start"
MARK_FAILED = MARK + b"setup failed"
MARK_EXIT = re.compile(rb"linux-vm: exit (\d+)$")

# virtio-net properties for each guest NIC. With any checksum or segmentation
# offload negotiated, the guest hands frames to QEMU with the UDP/IP (and
# SCTP CRC32c) checksums left for "the hardware", QEMU passes them on to the
# tap with a vnet header saying so, and the other end of the link, a DPDK
# af_packet port, reads them unfilled. All of these are accepted by QEMU 7.2.
# romfile= (empty): no iPXE option ROM, which SeaBIOS would load for nothing
# (the kernel is booted directly) and which costs boot time.
NIC_PROPS = ("csum=off,guest_csum=off,gso=off,guest_tso4=off,guest_tso6=off,"
             "guest_ecn=off,guest_ufo=off,host_tso4=off,host_tso6=off,"
             "host_ecn=off,host_ufo=off,mrg_rxbuf=off,romfile=")

EXIT_USAGE, EXIT_ENV = 2, 3


class Fail(Exception):
    """An error for the user, with the exit status to leave with."""

    def __init__(self, status, msg):
        super().__init__(msg)
        self.status = status


def sh(cmd, cwd=None):
    """Run cmd; its output, or Fail(EXIT_ENV) with that output."""
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        raise Fail(EXIT_ENV, "%s: %s" % (cmd[0], e))
    if r.returncode != 0:
        raise Fail(EXIT_ENV, "%s failed (%d):\n%s" % (" ".join(cmd), r.returncode,
                                                      r.stdout.rstrip()))
    return r.stdout


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --- ELF: is a program static, what does a module depend on ---------------

def check_static_x86_64(path, what):
    """Fail unless path is an x86-64 ELF executable without a program
    interpreter: the initramfs has no dynamic loader and no libraries."""
    try:
        with open(path, "rb") as f:
            hdr = f.read(64)
            ok = (len(hdr) == 64 and hdr[:4] == b"\x7fELF" and hdr[4] == 2 and hdr[5] == 1
                  and struct.unpack_from("<HH", hdr, 16) in ((2, 62), (3, 62)))
            if not ok:
                raise Fail(EXIT_USAGE, "%s %s is not an x86-64 ELF executable" % (what, path))
            phoff, = struct.unpack_from("<Q", hdr, 32)
            phentsize, phnum = struct.unpack_from("<HH", hdr, 54)
            f.seek(phoff)
            ph = f.read(phentsize * phnum)
    except OSError as e:
        raise Fail(EXIT_USAGE, "%s: %s" % (what, e))
    for i in range(phnum):
        if struct.unpack_from("<I", ph, i * phentsize)[0] == 3:  # PT_INTERP
            raise Fail(EXIT_USAGE, "%s %s is dynamically linked; the guest has no "
                       "libraries, link it with -static" % (what, path))
    if not os.access(path, os.X_OK):
        raise Fail(EXIT_USAGE, "%s %s is not executable" % (what, path))


def read_ko(path):
    """A module's bytes, decompressed: busybox insmod takes plain ELF only."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".zst"):
        raise Fail(EXIT_ENV, "%s: zstd-compressed modules are not supported "
                   "(Python has no zstd before 3.14)" % path)
    return data


def modinfo(ko):
    """The key=value strings of a module's .modinfo section, as a dict of
    lists (alias= and softdep= may repeat)."""
    if ko[:4] != b"\x7fELF" or ko[4] != 2:
        raise ValueError("not a 64-bit ELF module")
    shoff, = struct.unpack_from("<Q", ko, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", ko, 0x3a)

    def section(i):
        name, _type, _flags, _addr, off, size = struct.unpack_from(
            "<IIQQQQ", ko, shoff + i * shentsize)
        return name, ko[off:off + size]

    _, names = section(shstrndx)
    info = {}
    for i in range(shnum):
        name, body = section(i)
        if names[name:names.index(b"\0", name)] != b".modinfo":
            continue
        for item in body.split(b"\0"):
            key, sep, value = item.decode(errors="replace").partition("=")
            if sep:
                info.setdefault(key, []).append(value)
    return info


def module_name(filename):
    """The name the kernel uses: crc32c-intel.ko.xz is crc32c_intel."""
    return re.sub(r"\.ko(\.[a-z]+)?$", "", filename).replace("-", "_")


def bzimage_vmlinux(bz):
    """The kernel ELF inside a bzImage, or None when it cannot be had.

    Why: under TCG the bzImage's own decompressor needs about 2.7 s to
    unpack Debian's xz payload, half the boot. QEMU boots the ELF directly
    through its PVH entry point (CONFIG_PVH, an ELF note), so we unpack it
    once, here, with Python's lzma. The payload's place is in the setup
    header (boot protocol 2.08+, Documentation/x86/boot.rst)."""
    if len(bz) < 0x250 or bz[0x202:0x206] != b"HdrS":
        return None
    version, = struct.unpack_from("<H", bz, 0x206)
    if version < 0x208:
        return None
    setup_sects = bz[0x1f1] or 4
    off, size = struct.unpack_from("<II", bz, 0x248)
    payload = bz[(setup_sects + 1) * 512 + off:][:size]
    try:
        if payload.startswith(b"\xfd7zXZ\0"):
            elf = lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(payload)
        elif payload.startswith(b"\x1f\x8b"):
            elf = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(payload)
        else:  # zstd, lz4, lzo, ...: no decompressor in the standard library
            return None
    except (lzma.LZMAError, zlib.error):
        return None
    return elf if elf_has_pvh_note(elf) else None


def elf_has_pvh_note(elf):
    """Whether a 64-bit ELF kernel has XEN_ELFNOTE_PHYS32_ENTRY (type 18,
    owner "Xen"), the PVH entry point QEMU's -kernel looks for."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        return False
    phoff, = struct.unpack_from("<Q", elf, 32)
    phentsize, phnum = struct.unpack_from("<HH", elf, 54)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", elf, phoff + i * phentsize)
        if p_type != 4:  # PT_NOTE
            continue
        pos, end = p_offset, p_offset + p_filesz
        while pos + 12 <= end:
            namesz, descsz, n_type = struct.unpack_from("<III", elf, pos)
            name = elf[pos + 12:pos + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and n_type == 18:
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def write_sparse(path, data):
    """Write data leaving its zero pages as holes: half of Debian's vmlinux
    is zeros (.bss and alignment), 34 of 66 MB."""
    page = 4096
    zero = bytes(page)
    with open(path, "wb") as f:
        for i in range(0, len(data), page):
            block = data[i:i + page]
            if block == zero:
                f.seek(page, os.SEEK_CUR)
            else:
                f.write(block)
        f.truncate(len(data))


class ModuleTree:
    """Modules of one kernel, resolved into a load order without depmod."""

    def __init__(self, root):
        self.paths = {}
        for d, _, files in os.walk(root):
            for f in files:
                if re.search(r"\.ko(\.[a-z]+)?$", f):
                    self.paths[module_name(f)] = os.path.join(d, f)
        self.info = {}
        self.aliases = None

    def modinfo(self, name):
        if name not in self.info:
            try:
                self.info[name] = modinfo(read_ko(self.paths[name]))
            except (OSError, ValueError, struct.error) as e:
                raise Fail(EXIT_ENV, "%s: %s" % (self.paths[name], e))
        return self.info[name]

    def by_alias(self, alias):
        """The module providing alias (softdeps name aliases, e.g. "crc32c").
        With several providers the *_generic one wins: it needs no CPU
        feature, so it loads on whatever -cpu the guest gets."""
        if self.aliases is None:  # reads every module: only when needed
            self.aliases = {}
            for name in sorted(self.paths):
                for a in self.modinfo(name).get("alias", []):
                    self.aliases.setdefault(a, []).append(name)
        found = self.aliases.get(alias, [])
        generic = [m for m in found if m.endswith("_generic")]
        return (generic or found or [None])[0]

    def load_order(self, roots):
        """Every module the roots need, each after what it needs. Softdep
        "pre:" modules count as needs: libcrc32c asks the crypto API for
        "crc32c", which would request_module() it, and the guest has no
        modprobe to answer; crc32c_generic must already be loaded."""
        order, visiting = [], set()

        def visit(name, why):
            if name in order:
                return
            if name not in self.paths:
                raise Fail(EXIT_ENV, "module %s (needed by %s) is not in the kernel "
                           "package" % (name, why))
            if name in visiting:
                raise Fail(EXIT_ENV, "module dependency loop at %s" % name)
            visiting.add(name)
            info = self.modinfo(name)
            for soft in info.get("softdep", []):
                pre = re.search(r"pre:(.*?)(post:|$)", soft)
                for dep in (pre.group(1).split() if pre else []):
                    dep = dep.replace("-", "_")
                    visit(dep if dep in self.paths else self.by_alias(dep) or dep, name)
            for dep in ",".join(info.get("depends", [])).split(","):
                if dep:
                    visit(dep.replace("-", "_"), name)
            visiting.discard(name)
            order.append(name)

        for r in roots:
            visit(r, "the guest")
        return order


# --- cpio (newc) ------------------------------------------------------------

class Cpio:
    """A newc archive, the format the kernel unpacks into its rootfs
    (Documentation/driver-api/early-userspace/buffer-format.rst). Owner root,
    mtime 0: the same inputs give the same bytes."""

    def __init__(self):
        self.out = bytearray()
        self.ino = 0

    def _entry(self, name, mode, data=b"", nlink=1, rdev=(0, 0)):
        self.ino += 1
        name_b = name.encode() + b"\0"
        # ino mode uid gid nlink mtime filesize devmajor devminor
        # rdevmajor rdevminor namesize check
        fields = (self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0,
                  rdev[0], rdev[1], len(name_b), 0)
        self.out += b"070701" + b"".join(b"%08X" % v for v in fields) + name_b
        self.out += b"\0" * (-len(self.out) % 4)  # header+name padded to 4
        self.out += data
        self.out += b"\0" * (-len(self.out) % 4)  # data padded to 4

    def dir(self, name):
        self._entry(name, 0o040755, nlink=2)

    def file(self, name, data, perm=0o644):
        self._entry(name, 0o100000 | perm, data)

    def chardev(self, name, major, minor):
        self._entry(name, 0o020600, rdev=(major, minor))

    def finish(self):
        self._entry("TRAILER!!!", 0)
        return bytes(self.out)


# --- the guest's /init ---------------------------------------------------

# busybox sh. /run.conf, from the archive `run` appends, holds one item a
# line: "mode run|selftest", "ipv6 0|1", "nic MAC ADDR/LEN" per NIC and
# "arg X" per argument of the command (the first is the program).
INIT = r"""#!/bin/busybox sh
# /init of the linux_vm.py guest (generated; see linux_vm.py).
/bin/busybox --install -s /bin
export PATH=/bin

fail() {
	echo "linux-vm: setup failed: $*"
	poweroff -f
	exit 1	# poweroff did not: init exiting panics, panic=-1 ends QEMU
}

mount -t proc proc /proc || fail "mount /proc"
mount -t sysfs sysfs /sys || fail "mount /sys"
mount -t devtmpfs devtmpfs /dev || fail "mount /dev"

mode=run
ipv6=0
nics=
set --
while IFS= read -r line; do
	case $line in
	"mode "*) mode=${line#mode } ;;
	"ipv6 "*) ipv6=${line#ipv6 } ;;
	"nic "*) nics="$nics ${line#nic }" ;;
	"arg "*) set -- "$@" "${line#arg }" ;;
	*) fail "bad line in /run.conf: $line" ;;
	esac
done </run.conf || fail "no /run.conf"

# Before the NICs exist, so that their "default" settings apply to them.
if [ "$ipv6" = 1 ]; then
	# Addresses usable at once: no duplicate address detection.
	sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
else
	# No router solicitations, MLD reports or link-local addresses on the
	# test link (nor in an SCTP INIT's address list) unless asked for.
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
fi || fail "sysctl ipv6"
# Two NICs on one L2 segment: without these each answers ARP for the other's
# address (and sources ARP with either), and traffic for one path lands on
# the other NIC.
sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2 ||
	fail "sysctl arp"

for m in @MODULES@; do
	insmod /lib/modules/$m.ko || fail "insmod $m"
done

nic_up() {	# MAC ADDR/LEN: the NIC QEMU gave that MAC gets the address
	dev=
	for i in $(seq 50); do
		for d in /sys/class/net/*; do
			[ "$(cat $d/address)" = "$1" ] && dev=${d##*/}
		done
		[ -n "$dev" ] && break
		sleep 0.1
	done
	[ -n "$dev" ] || fail "no NIC with MAC $1"
	ip link set dev "$dev" mtu 1500 up || fail "ip link set $dev up"
	ip addr add "$2" dev "$dev" || fail "ip addr add $2 dev $dev"
	devs="$devs $dev"
}
nics_up() {
	devs=
	while [ $# -ge 2 ]; do
		nic_up "$1" "$2"
		shift 2
	done
	# A NIC without carrier has the noop qdisc, which drops what is sent:
	# the peer's first INIT would be lost to a 1 s RTO. (Not operstate:
	# linkwatch updates it up to a second late, after the qdisc is live.)
	for i in $(seq 50); do
		down=
		for dev in $devs; do
			[ "$(cat /sys/class/net/$dev/carrier)" = 1 ] || down="$down $dev"
		done
		[ -z "$down" ] && return
		sleep 0.1
	done
	fail "not up after 5 s:$down"
}
nics_up $nics
ip link set lo up || fail "ip link set lo up"

selftest() {	# the peer against itself over loopback, each bounded in time
	(
		timeout -s KILL 150 /peer -s --echo </dev/null 2>&1 &
		echo $! >/tmp/server.pid
		wait $!
		echo $? >/tmp/server.rc
	) | tee /tmp/server.log &
	i=0
	until grep -q "server: listening" /tmp/server.log 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 100 ] || break
		sleep 0.1
	done
	timeout -s KILL 120 /peer -c 127.0.0.1 -n 200 -l 9000 --echo </dev/null 2>&1
	crc=$?
	[ $crc = 0 ] || kill "$(cat /tmp/server.pid)" 2>/dev/null
	wait
	src=$(cat /tmp/server.rc 2>/dev/null || echo 255)
	echo "linux-vm: server exit $src"
	echo "linux-vm: client exit $crc"
	[ "$src" = 0 ] && [ "$crc" = 0 ]
}

case $mode in
run) [ $# -gt 0 ] || fail "no command in /run.conf" ;;
selftest) ;;
*) fail "bad mode $mode" ;;
esac
echo "linux-vm: peer start"
if [ $mode = run ]; then
	"$@" </dev/null 2>&1
else
	selftest
fi
echo "linux-vm: exit $?"
poweroff -f
"""


# --- image ------------------------------------------------------------------

_apt_refreshed = False


def apt_refresh():
    """apt-get update, once, as root: a machine whose package lists are
    missing or older than the mirror (the kernel's ABI moves on, the old
    .deb is gone) gets what it needs instead of a failure. False when it
    cannot (not root, or already done)."""
    global _apt_refreshed
    if _apt_refreshed or os.geteuid() != 0:
        return False
    _apt_refreshed = True
    print("linux-vm: apt-get update", flush=True)
    sh(["apt-get", "update", "-q"])
    return True


def kernel_package():
    """The versioned package linux-image-amd64 points at."""
    while True:
        try:
            for line in sh(["apt-cache", "depends", META_PKG]).splitlines():
                kind, _, pkg = line.strip().lstrip("|").partition(": ")
                if kind == "Depends" and pkg.startswith("linux-image-"):
                    return pkg.strip()
            why = "apt-cache depends %s names no linux-image package" % META_PKG
        except Fail as e:
            why = str(e)
        if not apt_refresh():
            raise Fail(EXIT_ENV, why)


def kernel_deb(d, pkg):
    """DIR's copy of pkg's .deb, downloaded when there is none. apt-get
    warns that it downloads unsandboxed as root; harmless."""
    def cached():
        debs = [os.path.join(d, f) for f in os.listdir(d)
                if f.startswith(pkg + "_") and f.endswith(".deb")]
        return max(debs, key=os.path.getmtime) if debs else None

    deb = cached()
    if deb is None:
        print("linux-vm: downloading %s" % pkg, flush=True)
        try:
            sh(["apt-get", "download", pkg], cwd=d)
        except Fail:
            if not apt_refresh():
                raise
            sh(["apt-get", "download", pkg], cwd=d)
        deb = cached()
        if deb is None:
            raise Fail(EXIT_ENV, "apt-get download %s left no .deb in %s" % (pkg, d))
    return deb


def cmd_image(a):
    d = os.path.abspath(a.dir)
    os.makedirs(d, exist_ok=True)
    # Two harness runs may build the same DIR at once; one waits.
    lock = open(os.path.join(d, ".lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    check_static_x86_64(BUSYBOX, "busybox (install busybox-static)")
    check_static_x86_64(a.peer, "peer")
    deb = kernel_deb(d, a.kernel_pkg or kernel_package())
    stamp = {
        "kernel": sh(["dpkg-deb", "-f", deb, "Package", "Version"]).split(),
        "peer": sha256_file(a.peer),
        "busybox": sha256_file(BUSYBOX),
        "script": sha256_file(os.path.abspath(__file__)),
    }
    stamp_path = os.path.join(d, "stamp.json")
    try:
        with open(stamp_path) as f:
            old = json.load(f)
    except (OSError, ValueError):
        old = None
    if old == stamp and all(os.path.exists(os.path.join(d, f))
                            for f in ("vmlinuz", "base.cpio.gz")):
        print("linux-vm: image in %s is up to date" % d)
        return 0

    # The extracted package is some 400 MB; it lives only while we build.
    tree = tempfile.mkdtemp(prefix="extract.", dir=d)
    try:
        sh(["dpkg-deb", "-x", deb, tree])
        kernels = [f for f in os.listdir(os.path.join(tree, "boot"))
                   if f.startswith("vmlinuz-")]
        if len(kernels) != 1:
            raise Fail(EXIT_ENV, "%s: expected one boot/vmlinuz-*, found %s" % (deb, kernels))
        kver = kernels[0][len("vmlinuz-"):]
        mods = next((p for p in (os.path.join(tree, "lib/modules", kver),
                                 os.path.join(tree, "usr/lib/modules", kver))
                     if os.path.isdir(p)), None)
        if mods is None:
            raise Fail(EXIT_ENV, "%s: no modules for %s" % (deb, kver))
        tree_mods = ModuleTree(mods)
        order = tree_mods.load_order(ROOT_MODULES)

        cpio = Cpio()
        for name in ("bin", "dev", "proc", "sys", "tmp", "lib", "lib/modules"):
            cpio.dir(name)
        # The kernel opens /dev/console for init's stdio before init mounts
        # devtmpfs; its built-in archive has the node, ours does not rely on it.
        cpio.chardev("dev/console", 5, 1)
        with open(BUSYBOX, "rb") as f:
            cpio.file("bin/busybox", f.read(), 0o755)
        with open(a.peer, "rb") as f:
            cpio.file("peer", f.read(), 0o755)
        for name in order:
            cpio.file("lib/modules/%s.ko" % name, read_ko(tree_mods.paths[name]))
        cpio.file("init", INIT.replace("@MODULES@", " ".join(order)).encode(), 0o755)

        # Written under temporary names and renamed, the stamp last: an
        # interrupted build is never taken for a finished one.
        with open(os.path.join(d, "base.cpio.gz.tmp"), "wb") as f:
            f.write(gzip.compress(cpio.finish(), compresslevel=9, mtime=0))
        with open(os.path.join(tree, "boot", kernels[0]), "rb") as f:
            bz = f.read()
        with open(os.path.join(d, "vmlinuz.tmp"), "wb") as f:
            f.write(bz)
        elf = bzimage_vmlinux(bz)
        if elf is not None:
            write_sparse(os.path.join(d, "vmlinux.tmp"), elf)
        os.replace(os.path.join(d, "base.cpio.gz.tmp"), os.path.join(d, "base.cpio.gz"))
        os.replace(os.path.join(d, "vmlinuz.tmp"), os.path.join(d, "vmlinuz"))
        if elf is not None:
            os.replace(os.path.join(d, "vmlinux.tmp"), os.path.join(d, "vmlinux"))
        elif os.path.exists(os.path.join(d, "vmlinux")):
            os.unlink(os.path.join(d, "vmlinux"))
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    with open(stamp_path + ".tmp", "w") as f:
        json.dump(stamp, f, indent=1)
    os.replace(stamp_path + ".tmp", stamp_path)
    # Older kernel packages are no longer needed.
    for f in os.listdir(d):
        if f.startswith("linux-image-") and f.endswith(".deb") and f != os.path.basename(deb):
            os.unlink(os.path.join(d, f))
    print("linux-vm: built %s: kernel %s (%s), modules %s, peer %s"
          % (d, kver, "boots as vmlinux by PVH" if elf is not None else
             "no PVH vmlinux, boots the bzImage", " ".join(order), a.peer))
    return 0


# --- run ---------------------------------------------------------------------

def nic_mac(k):
    """NIC K's MAC: fixed per K, so captures and neighbour tables read the
    same on every run; locally administered (the 0x02 bit of 52)."""
    return "52:54:00:4c:56:%02x" % k


def parse_nics(specs):
    """[(ifname, "ADDR/LEN")] from --nic IFNAME=ADDR/LEN[,...] options."""
    nics = []
    for spec in ",".join(specs or []).split(","):
        if not spec:
            continue
        ifname, sep, addr = spec.partition("=")
        try:
            if not sep or "/" not in addr:
                raise ValueError("want IFNAME=ADDR/LEN")
            ipaddress.ip_interface(addr)
        except ValueError as e:
            raise Fail(EXIT_USAGE, "--nic %s: %s" % (spec, e))
        sysfs = "/sys/class/net/%s" % ifname
        if not os.path.exists(sysfs + "/tun_flags"):
            raise Fail(EXIT_USAGE, "--nic %s: %s is not a tap device in this network "
                       "namespace (ip tuntap add dev %s mode tap)" % (spec, ifname, ifname))
        with open(sysfs + "/flags") as f:
            if not int(f.read(), 16) & 1:  # IFF_UP
                print("linux-vm: warning: %s is down; the guest's NIC %d will see no "
                      "traffic until it is up" % (ifname, len(nics)), file=sys.stderr)
        nics.append((ifname, addr))
    return nics


def run_conf(mode, nics, argv):
    """The per-run /run.conf (format: see INIT)."""
    lines = [b"mode " + mode.encode()]
    v6 = any(ipaddress.ip_interface(addr).version == 6 for _, addr in nics)
    lines.append(b"ipv6 1" if v6 else b"ipv6 0")
    lines += [("nic %s %s" % (nic_mac(k), addr)).encode() for k, (_, addr) in enumerate(nics)]
    for arg in argv:
        if "\n" in arg:
            raise Fail(EXIT_USAGE, "peer argument %r has a newline" % arg)
        lines.append(b"arg " + os.fsencode(arg))
    return b"".join(l + b"\n" for l in lines)


def pdeathsig_kill():
    """preexec_fn for QEMU: die with the wrapper. A SIGKILL of the wrapper
    alone (not its process group) would otherwise leave QEMU running with
    its taps."""
    parent = os.getpid()
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork

    def preexec():
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the wrapper died before prctl
            os._exit(1)
    return preexec


class Vm:
    """One boot of the image: QEMU with the serial console on a pipe."""

    def __init__(self, a, mode, nics, argv):
        self.d = os.path.abspath(a.dir)
        self.a = a
        self.mode = mode
        self.nics = nics
        self.conf = run_conf(mode, nics, argv)
        self.proc = None
        self.tail = deque(maxlen=40)  # console and QEMU lines, for errors

    def initrd(self):
        """base.cpio.gz + the run archive, in a memfd. The kernel unpacks
        concatenated archives, compressed or not, but the next one must
        start 4-byte aligned (init/initramfs.c), hence the zero padding,
        which it skips. A memfd, not a file: QEMU reopens it by
        /proc/self/fd/N (it reads the initrd before the guest starts), and
        it leaves nothing behind however the wrapper ends, SIGKILL included."""
        with open(os.path.join(self.d, "base.cpio.gz"), "rb") as f:
            base = f.read()
        run = Cpio()
        run.file("run.conf", self.conf)
        fd = os.memfd_create("linux-vm-initrd", 0)
        with open(fd, "wb", closefd=False) as f:
            f.write(base + b"\0" * (-len(base) % 4) + run.finish())
        return fd

    def command(self, initrd_fd):
        a = self.a
        # TCG's "max" has every feature QEMU emulates, so the kernel picks
        # its faster code paths; under KVM "host" passes the real CPU on.
        cpu = a.cpu or ("host" if a.accel == "kvm" else "max")
        # The unpacked kernel when `image` could make one (see bzimage_vmlinux).
        kernel = os.path.join(self.d, "vmlinux")
        if not os.path.exists(kernel):
            kernel = os.path.join(self.d, "vmlinuz")
        cmd = [QEMU, "-nodefaults", "-no-user-config", "-display", "none",
               "-monitor", "none", "-serial", "stdio", "-no-reboot",
               "-accel", a.accel, "-cpu", cpu, "-smp", "1", "-m", str(a.mem),
               "-kernel", kernel,
               "-initrd", "/proc/self/fd/%d" % initrd_fd,
               "-append", CMDLINE]
        for k, (ifname, _) in enumerate(self.nics):
            # vnet_hdr=off: with no vnet header on the tap QEMU cannot offer
            # any offload to the guest, whatever NIC_PROPS says; belt and
            # braces for the checksums.
            cmd += ["-netdev", "tap,id=n%d,ifname=%s,script=no,downscript=no,vnet_hdr=off"
                    % (k, ifname),
                    "-device", "virtio-net-pci,netdev=n%d,mac=%s,%s" % (k, nic_mac(k), NIC_PROPS)]
        return cmd

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def boot(self, on_line):
        """Boot, hand each peer output line (bytes, no newline) to on_line,
        return the status in the exit marker."""
        for f in ("vmlinuz", "base.cpio.gz"):
            if not os.path.exists(os.path.join(self.d, f)):
                raise Fail(EXIT_ENV, "%s has no %s: run `linux_vm.py image --dir %s "
                           "--peer PATH` first" % (self.d, f, self.a.dir))
        if shutil.which(QEMU) is None:
            raise Fail(EXIT_ENV, "%s not found (apt-get install qemu-system-x86)" % QEMU)
        if self.a.accel == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
            raise Fail(EXIT_ENV, "--accel kvm: /dev/kvm is not usable")
        fd = self.initrd()
        t0 = time.monotonic()
        try:
            self.proc = subprocess.Popen(self.command(fd), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         pass_fds=(fd,), preexec_fn=pdeathsig_kill())
        finally:
            os.close(fd)
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ, "console")
        sel.register(self.proc.stderr, selectors.EVENT_READ, "qemu")
        partial = {"console": b"", "qemu": b""}
        started = False
        status = None
        while sel.get_map() and status is None:
            timeout = None
            if not started:
                timeout = t0 + self.a.boot_timeout - time.monotonic()
                if timeout <= 0:
                    self.kill()
                    raise Fail(EXIT_ENV, "the VM did not reach the peer in %g s%s"
                               % (self.a.boot_timeout, self.last_lines()))
            for key, _ in sel.select(timeout):
                data = os.read(key.fileobj.fileno(), 65536)
                if not data:  # EOF: QEMU is gone, flush what is left
                    sel.unregister(key.fileobj)
                    lines = [partial[key.data]] if partial[key.data] else []
                else:
                    lines = (partial[key.data] + data).split(b"\n")
                    partial[key.data] = lines.pop()
                for line in lines:
                    line = line.replace(b"\r", b"")  # the tty's ONLCR
                    if key.data == "qemu":
                        self.tail.append(b"qemu: " + line)
                        sys.stderr.buffer.write(line + b"\n")
                        sys.stderr.flush()
                        continue
                    if not started:
                        self.tail.append(line)
                        if line == MARK_START:
                            started = True
                            print("linux-vm: peer started %.1f s after QEMU"
                                  % (time.monotonic() - t0), file=sys.stderr, flush=True)
                        elif line.startswith(MARK_FAILED):
                            self.kill()
                            raise Fail(EXIT_ENV, "in the guest: %s%s" % (
                                line[len(MARK):].decode(errors="replace"), self.last_lines()))
                        continue
                    m = MARK_EXIT.search(line)
                    if m:
                        # A last peer line without a newline ends up in front.
                        if m.start():
                            on_line(line[:m.start()])
                        status = int(m.group(1))
                        break
                    self.tail.append(line)
                    on_line(line)
                if status is not None:
                    break
        sel.close()
        if status is None:
            rc = self.proc.wait()
            raise Fail(EXIT_ENV, "QEMU exited (%d) before the peer %s%s"
                       % (rc, "finished" if started else "started", self.last_lines()))
        # poweroff -f in the guest ends QEMU within a second; do not wait on it.
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.kill()
        return status

    def last_lines(self):
        if not self.tail:
            return ""
        return "; last lines:\n" + "\n".join("  " + l.decode(errors="replace")
                                             for l in self.tail)


def out(line):
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.flush()  # the caller waits for lines such as "server: listening"


def cmd_run(a, vm_holder):
    if a.exec and not a.peer_args:
        raise Fail(EXIT_USAGE, "--exec needs a command after --")
    argv = a.peer_args if a.exec else ["/peer"] + a.peer_args
    vm = vm_holder.vm = Vm(a, "run", parse_nics(a.nic), argv)
    return vm.boot(out)


def cmd_selftest(a, vm_holder):
    vm = vm_holder.vm = Vm(a, "selftest", [], [])
    got = {}

    def line(l):
        out(l)
        m = re.match(rb"linux-vm: (server|client) exit (\d+)$", l)
        if m:
            got[m.group(1).decode()] = int(m.group(2))

    vm.boot(line)
    ok = got.get("server") == 0 and got.get("client") == 0
    print("linux-vm: selftest %s: server exit %s, client exit %s"
          % ("passed" if ok else "FAILED", got.get("server", "?"), got.get("client", "?")))
    return 0 if ok else 1


def main():
    # Arguments after "--" belong to the peer, untouched by argparse.
    argv = sys.argv[1:]
    peer_args = []
    if "--" in argv:
        i = argv.index("--")
        argv, peer_args = argv[:i], argv[i + 1:]

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pi = sub.add_parser("image", help="build or refresh DIR/vmlinuz and DIR/base.cpio.gz")
    pi.add_argument("--dir", required=True)
    pi.add_argument("--peer", required=True, help="static peer program, /peer in the guest")
    pi.add_argument("--kernel-pkg", help="default: what %s depends on" % META_PKG)
    for name in ("run", "selftest"):
        if name == "run":
            pr = sub.add_parser(name, help="boot the image and run the peer",
                                usage="%(prog)s --dir DIR [options] -- PEER_ARGS...")
        else:
            pr = sub.add_parser(name, help="the peer against itself over the guest's loopback")
        pr.add_argument("--dir", required=True)
        pr.add_argument("--accel", choices=("tcg", "kvm"), default="tcg",
                        help="default tcg (why: see the module docstring)")
        pr.add_argument("--cpu", help="QEMU -cpu model (default: max with tcg, "
                        "host with kvm)")
        pr.add_argument("--boot-timeout", type=float, default=60, metavar="S")
        pr.add_argument("--mem", type=int, default=256, metavar="MB")
        if name == "run":
            pr.add_argument("--nic", action="append", metavar="IFNAME=ADDR/LEN[,...]",
                            help="existing host tap IFNAME as guest NIC K (in order), "
                            "with ADDR/LEN in the guest")
            pr.add_argument("--exec", action="store_true",
                            help="PEER_ARGS is a guest command line, not /peer's arguments")
    a = p.parse_args(argv)
    a.peer_args = peer_args
    if peer_args and a.cmd != "run":
        p.error("arguments after -- are for run only")

    holder = types.SimpleNamespace(vm=None)  # the running VM, for on_signal

    def on_signal(signum, _frame):
        # QEMU shares our process group, so a killpg() reaches it anyway;
        # a signal to the wrapper alone must not leave it running.
        if holder.vm is not None:
            holder.vm.kill()
        os._exit(128 + signum)

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        if a.cmd == "image":
            return cmd_image(a)
        if a.cmd == "run":
            return cmd_run(a, holder)
        return cmd_selftest(a, holder)
    except Fail as e:
        print("linux-vm: %s" % e, file=sys.stderr, flush=True)
        return e.status
    except BrokenPipeError:
        # The reader of our output went away: end quietly, as by SIGPIPE
        # (and keep the interpreter from failing to flush at exit).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    finally:
        if holder.vm is not None:
            holder.vm.kill()


if __name__ == "__main__":
    sys.exit(main())
