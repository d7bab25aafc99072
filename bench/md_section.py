# SPDX-License-Identifier: BSD-3-Clause
"""A generated section of a Markdown page, between the markers
<!-- NAME:begin ...--> and <!-- NAME:end -->: replaced in place when the page
has them, else appended under HEADING. The benchmark scripts that write
docs/PERFORMANCE.md (bench/scale, bench/sidecar, bench/stages) share it, so
each rewrites only its own section, the same way every time."""


def write_section(path, name, text, heading):
    """text must itself start with <!-- NAME:begin and end with <!-- NAME:end -->."""
    with open(path) as f:
        doc = f.read()
    b, e = "<!-- %s:begin" % name, "<!-- %s:end -->" % name
    if b in doc and e in doc:
        i, j = doc.index(b), doc.index(e) + len(e)
        doc = doc[:i] + text + doc[j:]
    else:
        doc = doc.rstrip("\n") + "\n\n## %s\n\n" % heading + text + "\n"
    with open(path, "w") as f:
        f.write(doc)
