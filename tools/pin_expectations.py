#!/usr/bin/env python3
"""Pin the expected failures of a -fails.txt to what fails (runner: the
"# pin:" comments, framework/expect.h).

    tools/pin_expectations.py RESULTS.json PREFIX-fails.txt [--repin] [--check]

A result lists each case's failures apart from its notes (the items of its
message at the case's status, and the rest).  For each entry whose case has
that status in RESULTS.json (a run of this build on the driver the file is
for), one "# pin: REGEX" line per distinct failure is written just above
the entry: the failure without its "file.c:line: " prefix (lines move),
regex-escaped, each number replaced by [0-9]+ (values that vary between
runs of one driver must not make the failure unexpected; the check and the
shape of its message are pinned).  The runner matches each failure with
the entry's pins whole, so a second failure needs a pin of its own and a
note never needs one.  Without --repin only entries without pins get them;
--repin replaces the pins of every entry the result covers.  Entries whose
case did not fail so are left as they are and listed.  --check: exit 1,
changing nothing, when an entry lacks a pin the result could give or a pin
no longer covers the failures.  The file is replaced whole or not at all
(tools/outputs.py).  Bad input: one line, exit 2.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outputs  # noqa: E402

PREFIX = re.compile(r"^[\w.+-]+\.c:\d+: ")
ERE_SPECIAL = re.compile(r"[.\[\]()*+?{}|^$\\]")
PIN = "# pin: "


def pattern(failure):
    text = PREFIX.sub("", failure)
    out = []
    for part in re.split(r"(0x[0-9a-fA-F]+|\d+)", text):
        if part.startswith("0x"):
            out.append("0x[0-9a-fA-F]+")
        elif part.isdigit():
            out.append("[0-9]+")
        else:
            out.append(ERE_SPECIAL.sub(r"\\\g<0>", part))
    return "".join(out)


def failures(case):
    f = case.get("failures")
    if isinstance(f, list):
        return [x for x in f if isinstance(x, str)]
    # a result of a vkqs before failures and notes were kept apart
    return [case["message"]] if case.get("message") else []


def covers(pins, fails):
    """Whether every failure matches one of the pins whole (as the runner
    matches: ERE, anchored; these pins use only what ERE and Python share)."""
    try:
        res = [re.compile(p) for p in pins]
    except re.error:
        return False
    return all(any(r.fullmatch(PREFIX.sub("", f)) for r in res) for f in fails)


def main(argv):
    check = "--check" in argv
    repin = "--repin" in argv
    args = [a for a in argv if a not in ("--check", "--repin")]
    if len(args) != 2 or any(a.startswith("--") for a in args):
        print("usage: pin_expectations.py RESULTS.json PREFIX-fails.txt [--repin] [--check]",
              file=sys.stderr)
        return 2
    res_path, fails_path = args
    try:
        with open(res_path, encoding="utf-8-sig") as f:
            res = json.load(f)
        with open(fails_path, encoding="utf-8-sig") as f:
            lines = f.read().split("\n")
        cases = {c["name"]: c for c in res["cases"]}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        print("pin_expectations: error: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 2
    out, changed, left, stale = [], 0, [], []
    for line in lines:
        s = line.strip()
        if s and not s.startswith("#") and "," in s:
            name, status = s.split(",")[:2]
            # the comment block above the entry, and its pins
            j = len(out)
            while j > 0 and out[j - 1].strip().startswith("#"):
                j -= 1
            pins = [x.strip()[len(PIN):] for x in out[j:] if x.strip().startswith(PIN)]
            c = cases.get(name)
            fails = failures(c) if c and c.get("status") == status else []
            if fails:
                want = list(dict.fromkeys(pattern(f) for f in fails))
                if pins and not covers(pins, fails):
                    stale.append(name)
                if (not pins or repin) and pins != want:
                    out[j:] = [x for x in out[j:] if not x.strip().startswith(PIN)]
                    out.extend(PIN + p for p in want)
                    changed += 1
            elif not pins:
                left.append("%s (%s)" % (name, c["status"] if c else "not in the result"))
        out.append(line)
    for l in left:
        print("pin_expectations: %s: no pin for %s" % (fails_path, l), file=sys.stderr)
    if check:
        for n in stale:
            print("pin_expectations: %s: the pins of %s do not cover its failures"
                  % (fails_path, n))
        if changed and not repin:
            print("pin_expectations: %s: %d entries could be pinned" % (fails_path, changed))
        return 1 if (stale or (changed and not repin)) else 0
    if changed:
        # replaced whole or not at all (tools/outputs.py): a full disk or a
        # kill leaves the old file, never a truncated one
        try:
            outputs.check_all([("the expectations file", fails_path)],
                              [("the result " + res_path, res_path)])
            outputs.write(fails_path, "\n".join(out))
        except (outputs.OutputError, OSError) as e:
            print("pin_expectations: error: %s" % e, file=sys.stderr)
            return 2
    print("pin_expectations: %s: %d entries (re)pinned, %d entries left unpinned"
          % (fails_path, changed, len(left)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
