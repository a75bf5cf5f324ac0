#!/usr/bin/env python3
"""Checks that every expected failure cites the current specification.

    check_expectations.py [--min-version 1.4.360] FILE...

Each entry ("name,Status") of a *-fails.txt file must be preceded, in the
comment block it belongs to (the '#' lines above it, up to a blank line;
consecutive entries share one block), by at least one citation:

    # must: 1.4.360 queries.adoc "... must ..."
    # defines: 1.4.360 devsandqueues.adoc "..."

'must:' quotes a sentence with "must" in it; 'defines:' a sentence that
defines the value the driver got wrong.  A warning entry (CompatibilityWarning,
QualityWarning) may instead quote a 'should:' or 'may:' sentence; a failing
one (Fail, Crash, Timeout, ...) needs a 'must:' or 'defines:'.  The version is the Vulkan spec
version the quote was read at, not older than --min-version (the oracle,
docs/verdicts.md).  Exit 0 when every entry cites; one line per entry that
does not and exit 1; a missing or unreadable file or a bad argument: one
line and exit 2.
"""
import argparse
import re
import sys

CITE = re.compile(r'#\s*(must|defines|should|may):\s*1\.4\.(\d+)\s+([\w/.-]+\.adoc)\s+"([^"]+)"')
FAILING = {"Fail", "Crash", "Timeout", "ResourceError", "InternalError"}


def version(s):
    m = re.fullmatch(r"1\.4\.(\d+)", s)
    if not m:
        raise argparse.ArgumentTypeError(f"not a Vulkan 1.4 version: {s!r}")
    return int(m.group(1))


def check(path, text, min_patch):
    problems, block = [], []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            block = []
            continue
        if s.startswith("#"):
            block.append(s)
            continue
        if not re.fullmatch(r"[^,\s]+,[A-Za-z]+", s):
            problems.append(f"{path}:{n}: not a 'name,Status' entry: {s}")
            continue
        status = s.split(",", 1)[1]
        cites = [m for m in (CITE.search(b) for b in block) if m]
        if status in FAILING:
            cites = [m for m in cites if m.group(1) in ("must", "defines")]
        if not cites:
            problems.append(f"{path}:{n}: {s}: no '# must:' or '# defines:' citation above it")
            continue
        for m in cites:
            kind, patch, _, quote = m.groups()
            if int(patch) < min_patch:
                problems.append(f"{path}:{n}: {s}: cites 1.4.{patch}, older than 1.4.{min_patch}")
            if kind == "must" and "must" not in quote:
                problems.append(f"{path}:{n}: {s}: a 'must:' citation whose quote has no 'must'")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-version", type=version, default=360)
    ap.add_argument("files", nargs="+")
    try:
        args = ap.parse_args()
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    problems = []
    for path in args.files:
        try:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
        except OSError as e:
            print(f"check_expectations.py: {path}: {e.strerror}", file=sys.stderr)
            sys.exit(2)
        problems += check(path, text, args.min_version)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
