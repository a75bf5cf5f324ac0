#!/usr/bin/env python3
"""Pin the expected failures of a -fails.txt to what fails (runner: the
"# pin:" comment, framework/expect.h).

    tools/pin_expectations.py RESULTS.json PREFIX-fails.txt [--check]

For each entry without a pin whose case has that status in RESULTS.json (a
run of this build on the driver the file is for), a "# pin: REGEX" line is
written just above it: the case's first failure message without its
"file.c:line: " prefix (lines move), regex-escaped, each number replaced by
[0-9]+ (values that vary between runs of one driver must not make the
failure unexpected; the check and the shape of its message are pinned).
Entries whose case did not fail so are left as they are and listed.
--check: exit 1, changing nothing, when an entry lacks a pin that the
result could give.  Bad input: one line, exit 2.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outputs  # noqa: E402

PREFIX = re.compile(r"^[\w.-]+\.c:\d+: ")
ERE_SPECIAL = re.compile(r"[.\[\]()*+?{}|^$\\]")


def pattern(message):
    first = PREFIX.sub("", message)
    # one check: up to the next "file.c:line: " of a second failure
    first = re.split(r"; [\w.-]+\.c:\d+: ", first)[0][:200]
    out = []
    for part in re.split(r"(0x[0-9a-fA-F]+|\d+)", first):
        if part.startswith("0x"):
            out.append("0x[0-9a-fA-F]+")
        elif part.isdigit():
            out.append("[0-9]+")
        else:
            out.append(ERE_SPECIAL.sub(r"\\\g<0>", part))
    return "".join(out)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 2:
        print("usage: pin_expectations.py RESULTS.json PREFIX-fails.txt [--check]",
              file=sys.stderr)
        return 2
    res_path, fails_path = args
    try:
        with open(res_path, encoding="utf-8") as f:
            res = json.load(f)
        with open(fails_path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        cases = {c["name"]: c for c in res["cases"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("pin_expectations: error: %s" % e, file=sys.stderr)
        return 2
    out, added, left = [], 0, []
    for line in lines:
        s = line.strip()
        if s and not s.startswith("#") and "," in s:
            name, status = s.split(",")[:2]
            j = len(out) - 1
            pinned = False
            while j >= 0 and out[j].strip().startswith("#"):
                pinned = pinned or out[j].strip().startswith("# pin:")
                j -= 1
            c = cases.get(name)
            if not pinned:
                if c and c["status"] == status and c.get("message"):
                    out.append("# pin: " + pattern(c["message"]))
                    added += 1
                else:
                    left.append("%s (%s)" % (name, c["status"] if c else "not in the result"))
        out.append(line)
    for l in left:
        print("pin_expectations: %s: no pin for %s" % (fails_path, l), file=sys.stderr)
    if check:
        if added:
            print("pin_expectations: %s: %d entries could be pinned" % (fails_path, added))
        return 1 if added else 0
    if added:
        # replaced whole or not at all (tools/outputs.py): a full disk or a
        # kill leaves the old file, never a truncated one
        try:
            outputs.check_all([("the expectations file", fails_path)],
                              [("the result " + res_path, res_path)])
            outputs.write(fails_path, "\n".join(out))
        except (outputs.OutputError, OSError) as e:
            print("pin_expectations: error: %s" % e, file=sys.stderr)
            return 2
    print("pin_expectations: %s: %d pins added, %d entries left unpinned"
          % (fails_path, added, len(left)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
