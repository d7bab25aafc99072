#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""libdpsctp-client as an application builds against it: installed, with
the #include lines docs/SIDECAR.md shows and nothing but
`pkg-config --cflags --libs libdpsctp-client`.

Why it exists: SIDECAR.md once said `#include <dpsctp/dpsctp_client.h>` while the .pc
file's Cflags pointed into include/dpsctp/, so only a system-wide install
under /usr/local found the header (by the compiler's default path, not by
pkg-config). Here the build is installed into a scratch DESTDIR (meson
install --destdir), pkg-config is pointed at it (PKG_CONFIG_PATH; the .pc file is relocatable,
its prefix found from where it lies, so its -I and -L lead there), and a program made of
SIDECAR.md's include lines is compiled with -H: the header it reads must be
the one in the DESTDIR. The program then runs against the installed library
(attach to a socket that does not exist: NULL, -ENOENT).

usage: pkgconfig_test.py SOURCE_ROOT BUILD_ROOT
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROGRAM = r"""
%s
#include <errno.h>
#include <stdio.h>

int
main(void)
{
	struct dpsctp_client_opts o = { .threads = 1, .name = "pkgconfig-test" };
	int err = 0;
	struct dpsctp_client *c = dpsctp_client_attach("/nonexistent/dpsctpd.sock", &o, &err);
	printf("attach: %%s, err %%d\n", c == NULL ? "NULL" : "attached", err);
	return c == NULL && err == -ENOENT ? 0 : 1;
}
"""


def documented_includes(source):
    """The #include lines of SIDECAR.md's C blocks that name our headers."""
    with open(os.path.join(source, "docs", "SIDECAR.md"), encoding="utf-8") as f:
        text = f.read()
    lines = []
    for block in re.findall(r"```c\n(.*?)```", text, re.S):
        lines += [ln.split("/*")[0].strip() for ln in block.split("\n")
                  if re.match(r"\s*#include\s*<dpsctp", ln)]
    return lines


def main():
    source, build = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
    includes = documented_includes(source)
    if not includes:
        print("FAIL: docs/SIDECAR.md shows no #include <dpsctp...> line")
        return 1
    print("documented:", *includes, sep="\n  ")
    cc = shutil.which("cc") or shutil.which("gcc")
    with tempfile.TemporaryDirectory(prefix="dpsctp-pc-") as tmp:
        dest = os.path.join(tmp, "destdir")
        r = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--destdir", dest],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(r.stdout[-3000:])
            print("FAIL: meson install --destdir")
            return 1
        pcs = glob.glob(os.path.join(dest, "**", "libdpsctp-client.pc"), recursive=True)
        if len(pcs) != 1:
            print("FAIL: installed libdpsctp-client.pc:", pcs)
            return 1
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]),
                   PKG_CONFIG_LIBDIR=os.path.dirname(pcs[0]))
        env.pop("PKG_CONFIG_SYSROOT_DIR", None)
        r = subprocess.run(["pkg-config", "--cflags", "--libs", "libdpsctp-client"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print("pkg-config --cflags --libs libdpsctp-client:", r.stdout.strip())
        if r.returncode != 0:
            print("FAIL: pkg-config")
            return 1
        flags = r.stdout.split()
        src = os.path.join(tmp, "app.c")
        with open(src, "w", encoding="utf-8") as f:
            f.write(PROGRAM % "\n".join(includes))
        exe = os.path.join(tmp, "app")
        r = subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-H", src, "-o", exe] + flags,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        read = [ln.lstrip(". ").strip() for ln in r.stdout.split("\n")
                if ln.startswith(".") and "dpsctp" in ln]
        print("headers of ours it read:", *read, sep="\n  ")
        if r.returncode != 0:
            print(r.stdout[-3000:])
            print("FAIL: the documented includes do not compile with pkg-config's flags")
            return 1
        outside = [h for h in read if not os.path.realpath(h).startswith(dest + os.sep)]
        if outside:
            print("FAIL: headers found outside the installed tree (not by pkg-config):",
                  outside)
            return 1
        libdirs = [fl[2:] for fl in flags if fl.startswith("-L")]
        r = subprocess.run([exe], env=dict(os.environ, LD_LIBRARY_PATH=":".join(libdirs)),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(r.stdout.strip())
        if r.returncode != 0:
            print("FAIL: the program did not run against the installed library")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
