#!/usr/bin/env python3
"""No pin guards nothing (issue 43): a "# pin:" of a -fails.txt is matched
whole against each failure of its case (framework/expect.h).  A pin that
also matches an item of a passing run of the case (a note such as "no
verdict", which a passing case prints too) pins nothing: the failure it
was meant for could change unnoticed.  This check reads result files of
runs where the pinned cases pass (the reference device) and fails when a
pin of the given -fails.txt files matches any item of a passing case whole.

    tools/check_pins.py RESULTS.json[,...] FAILS.txt...
Exit 1 with one line per such pin; 2 for bad input.
"""
import json
import re
import sys

PREFIX = re.compile(r"^[\w.+-]+\.c:\d+: ")


def pins_of(path):
    out = []  # (line, case, pin)
    pending = []
    with open(path, encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if s.startswith("# pin: "):
                pending.append((n, s[len("# pin: "):]))
            elif s and not s.startswith("#"):
                name = s.split(",")[0]
                out.extend((ln, name, p) for ln, p in pending)
                pending = []
    return out


def items(case):
    got = []
    for k in ("failures", "notes"):
        v = case.get(k)
        if isinstance(v, list):
            got.extend(x for x in v if isinstance(x, str))
    if not got and case.get("message"):
        got.append(case["message"])
    return [PREFIX.sub("", x) for x in got]


def main(argv):
    if len(argv) < 2:
        print("usage: check_pins.py RESULTS.json[,...] FAILS.txt...", file=sys.stderr)
        return 2
    passing = {}
    try:
        for p in argv[0].split(","):
            with open(p, encoding="utf-8-sig") as f:
                for c in json.load(f)["cases"]:
                    if c.get("status") == "Pass":
                        passing.setdefault(c["name"], []).extend(items(c))
        pins = [(path, ln, name, pin) for path in argv[1:] for ln, name, pin in pins_of(path)]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("check_pins: error: %s" % e, file=sys.stderr)
        return 2
    bad = 0
    for path, ln, name, pin in pins:
        try:
            rx = re.compile(pin)
        except re.error as e:
            print("check_pins: %s:%d: the pin of %s is no regex: %s" % (path, ln, name, e))
            bad += 1
            continue
        for it in passing.get(name, []):
            if rx.fullmatch(it):
                print("check_pins: %s:%d: the pin of %s matches '%s' of a passing run: it "
                      "pins nothing" % (path, ln, name, it[:160]))
                bad += 1
                break
    print("check_pins: %d pins, %d of their cases passed in the results, %d pin nothing"
          % (len(pins), len({n for _, _, n, _ in pins if n in passing}), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
