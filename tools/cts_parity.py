#!/usr/bin/env python3
"""Checks docs/cts-parity.md against the suite.

    tools/cts_parity.py --vkqs build/vkqs [--doc docs/cts-parity.md] [--strict]
    tools/cts_parity.py --list NAMES.txt [--doc ...] [--strict]

Every `vkqs.` name or glob in the map's tables must match at least one case
of `vkqs list`; the numbered rows (behaviour classes of the CTS query
tests) must run 1..N with N the count the page states.  Prints the classes
that name no vkqs case yet ("*none yet*").  Exit 0 when every name
matches (with --strict: and no class lacks cases), 1 when not, 2 on bad
input (one line on stderr).
"""
import argparse
import fnmatch
import re
import subprocess
import sys


def bad(msg):
    sys.stderr.write("cts_parity: %s\n" % msg)
    sys.exit(2)


def case_names(args):
    if args.list:
        try:
            with open(args.list) as f:
                return [l.strip() for l in f if l.strip()]
        except OSError as e:
            bad("%s: %s" % (args.list, e))
    try:
        out = subprocess.run([args.vkqs, "list"], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        bad("%s list: %s" % (args.vkqs, e))
    return [l.strip() for l in out.stdout.splitlines() if l.startswith("vkqs.")]


def rows(text):
    """(number or None, class text, [names], none_yet) per table row."""
    out = []
    for line in text.splitlines():
        if not line.startswith("|") or re.match(r"^\|\s*(#|behaviour|bug class|-)", line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        num = int(cells[0]) if cells[0].isdigit() else None
        names = re.findall(r"`(vkqs\.[^`]*)`", cells[-1])
        out.append((num, cells[1] if num else cells[0], names, "*none yet*" in cells[-1]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc", default="docs/cts-parity.md")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--vkqs", help="the vkqs binary (runs `vkqs list`)")
    src.add_argument("--list", help="a file of case names, one per line")
    ap.add_argument("--strict", action="store_true", help="fail on classes without cases")
    args = ap.parse_args()
    try:
        with open(args.doc) as f:
            text = f.read()
    except OSError as e:
        bad("%s: %s" % (args.doc, e))
    names = case_names(args)
    if not names:
        bad("no case names")
    table = rows(text)
    classes = [r for r in table if r[0] is not None]
    stated = re.search(r"\*\*(\d+) classes\*\*", text)
    if not stated:
        bad("%s does not state its class count (**N classes**)" % args.doc)
    if [r[0] for r in classes] != list(range(1, len(classes) + 1)):
        bad("%s: class rows are not numbered 1..%d in order" % (args.doc, len(classes)))
    if int(stated.group(1)) != len(classes):
        bad("%s states %s classes and has %d rows" % (args.doc, stated.group(1), len(classes)))
    errors, matched = [], set()
    for num, what, globs, none_yet in table:
        where = "#%d" % num if num else repr(what)
        if not globs and not none_yet:
            errors.append("%s names no vkqs case and is not marked *none yet*" % where)
        if globs and none_yet:
            errors.append("%s names cases and is marked *none yet*" % where)
        for g in globs:
            hit = fnmatch.filter(names, g)
            if not hit:
                errors.append("%s: `%s` matches no case of vkqs list" % (where, g))
            matched.update(hit)
    gaps = [r for r in classes if r[3]]
    for e in errors:
        print("cts_parity: " + e)
    print("cts_parity: %d classes of the CTS query tests, %d with vkqs cases, %d without yet%s; "
          "%d vkqs-only rows; %d of %d cases named"
          % (len(classes), len(classes) - len(gaps), len(gaps),
             (" (%s)" % ", ".join("#%d" % r[0] for r in gaps)) if gaps else "",
             len(table) - len(classes), len(matched), len(names)))
    if errors:
        return 1
    return 1 if args.strict and gaps else 0


if __name__ == "__main__":
    sys.exit(main())
