#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The public headers are documented as DPDK documents its own: every
exported function has a Doxygen comment (/** ... */) right above it, with
an @param for each of its arguments, by the prototype's names and in its
order, none for an argument it does not have, and an @return unless it
returns void; every exported function is named in the documents given, and
every error value a header names (-EINVAL, ...) is explained there.

An exported function is a declaration that starts with an export macro
(DPSCTP_EXPORT, DPSCTP_CLIENT_EXPORT). The check fails when a header
declares none (a renamed macro must not make it pass vacuously).

usage: check_api_docs.py HEADER... -- DOC.md...
"""
import re
import sys

EXPORT = re.compile(r"^(DPSCTP_EXPORT|DPSCTP_CLIENT_EXPORT)\s+([^;]*?)\b(\w+)\s*\(([^;]*?)\)\s*;",
                    re.M | re.S)


def arg_names(args):
    """The argument names of a prototype's parameter list ([] for (void))."""
    args = " ".join(args.split())
    if args in ("", "void"):
        return []
    names, depth, cur = [], 0, ""
    for ch in args + ",":
        if ch == "," and depth == 0:
            part = re.sub(r"\[[^\]]*\]", "", cur).strip()
            m = re.search(r"\(\s*\*\s*(\w+)\s*\)", part)  # a function pointer
            names.append(m.group(1) if m else re.findall(r"\w+", part)[-1])
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    return names


def check_header(path, problems):
    text = open(path, encoding="utf-8").read()
    funcs = []
    for m in EXPORT.finditer(text):
        ret, name, args = " ".join(m.group(2).split()), m.group(3), m.group(4)
        funcs.append(name)
        before = text[:m.start()].rstrip()
        if not before.endswith("*/"):
            problems.append(f"{path}: {name} has no comment above it")
            continue
        start = before.rfind("/*")
        comment = before[start:]
        if not comment.startswith("/**"):
            problems.append(f"{path}: {name}: its comment is not a Doxygen one (/**)")
        want = arg_names(args)
        have = re.findall(r"@param(?:\[\w+\])?\s+(\w+)", comment)
        if have != want:
            problems.append(f"{path}: {name}: @param {have}, the prototype has {want}")
        if ret != "void" and "@return" not in comment:
            problems.append(f"{path}: {name} returns {ret} without an @return")
        if ret == "void" and "@return" in comment:
            problems.append(f"{path}: {name} returns void but documents an @return")
    if not funcs:
        problems.append(f"{path}: no exported function found (export macro renamed?)")
    return funcs, set(re.findall(r"-E[A-Z0-9]+\b", text))


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        print(__doc__)
        return 2
    cut = argv.index("--")
    headers, docs = argv[:cut], argv[cut + 1:]
    problems, funcs, errors = [], [], set()
    for h in headers:
        f, e = check_header(h, problems)
        funcs += f
        errors |= e
    doc = "\n".join(open(d, encoding="utf-8").read() for d in docs)
    for name in funcs:
        if not re.search(r"\b" + name + r"\b", doc):
            problems.append(f"{name} is named in none of {', '.join(docs)}")
    for e in sorted(errors):
        if f"`{e}`" not in doc:
            problems.append(f"error value {e} is explained in none of {', '.join(docs)}")
    for p in problems:
        print(p)
    print(f"{len(funcs)} exported functions in {len(headers)} headers, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
