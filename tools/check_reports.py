#!/usr/bin/env python3
"""Checks that the reports of one vkqs run are valid and agree case by case.

    check_reports.py --json R.json --junit R.xml --csv R.csv [--expect NAME=Status]...
                     [--source DIR]

JSON must parse and carry the device and every case; the JUnit XML must
parse; results.csv must be `name,Status,duration_s` lines.  The three must
list the same cases in the same order with the same status words (JUnit
carries the status as a testcase property), the same durations (to the
precision of the coarser file), and JUnit must mark as <failure> exactly the
cases whose JSON outcome is unexpected.  --expect asserts one case's status.
The JSON's revision is a commit (12 hex digits, maybe "-modified") or
"unknown"; with --source DIR, a git checkout, it is DIR's HEAD.
Exit 0 when all holds; otherwise one line per problem and exit 1.
"""
import argparse
import csv
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

UNEXPECTED = {"unexpected", "unexpected_pass", "not_run"}
STATUSES = {"Pass", "Fail", "NotSupported", "QualityWarning", "CompatibilityWarning",
            "ResourceError", "InternalError", "Crash", "Timeout", "Missing"}


def csv_status(case):
    if case["outcome"] in ("flake", "known_flake"):
        return "Flake"
    return case["status"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", required=True)
    ap.add_argument("--junit", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--expect", action="append", default=[],
                    help="NAME=Status that the run must have produced")
    ap.add_argument("--source", help="the git checkout vkqs was built from")
    args = ap.parse_args()
    problems = []

    with open(args.json, encoding="utf-8") as f:
        doc = json.load(f)
    for key in ("device", "cases", "summary", "complete", "validation", "dispatch"):
        if key not in doc:
            problems.append(f"json: missing key '{key}'")
    for key in ("name", "driver_name", "api_version", "timestamp_period", "queue_families"):
        if key not in doc.get("device", {}):
            problems.append(f"json: device lacks '{key}'")
    rev = doc.get("revision")
    if not isinstance(rev, str) or not re.fullmatch(r"[0-9a-f]{12}(-modified)?|unknown", rev):
        problems.append(f"json: revision {rev!r} is no commit")
    elif args.source:
        try:
            head = subprocess.run(["git", "-C", args.source, "rev-parse", "--short=12", "HEAD"],
                                  capture_output=True, text=True)
        except OSError:  # no git: nothing to compare with
            head = None
        if head and head.returncode == 0 and not rev.startswith(head.stdout.strip()):
            problems.append(f"json: revision {rev} is not {args.source}'s HEAD "
                            f"{head.stdout.strip()} (built before a commit? build again)")
    cases = doc.get("cases", [])
    for c in cases:
        if c.get("status") not in STATUSES:
            problems.append(f"json: {c.get('name')}: bad status {c.get('status')!r}")
        if not c.get("spec"):
            problems.append(f"json: {c.get('name')}: no spec reference")

    tree = ET.parse(args.junit)
    junit = []
    for tc in tree.getroot().iter("testcase"):
        props = {p.get("name"): p.get("value") for p in tc.iter("property")}
        junit.append({
            "name": f"{tc.get('classname')}.{tc.get('name')}",
            "status": props.get("status"),
            "time": float(tc.get("time")),
            "failure": tc.find("failure") is not None,
        })

    with open(args.csv, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    for r in rows:
        if len(r) != 3:
            problems.append(f"csv: expected 3 fields, got {r}")

    if not (len(cases) == len(junit) == len(rows)):
        problems.append(f"case counts differ: json {len(cases)}, junit {len(junit)}, csv {len(rows)}")
    for c, j, r in zip(cases, junit, rows):
        name, want = c["name"], csv_status(c)
        if j["name"] != name or r[0] != name:
            problems.append(f"order differs at {name}: junit {j['name']}, csv {r[0]}")
            continue
        if j["status"] != want or r[1] != want:
            problems.append(f"{name}: status json {want}, junit {j['status']}, csv {r[1]}")
        if abs(float(r[2]) - c["duration_s"]) > 1e-5 or abs(j["time"] - c["duration_s"]) > 1e-5:
            problems.append(f"{name}: durations differ")
        if j["failure"] != (c["outcome"] in UNEXPECTED):
            problems.append(f"{name}: junit failure={j['failure']} but json outcome {c['outcome']}")

    by_name = {c["name"]: c for c in cases}
    for e in args.expect:
        name, _, status = e.partition("=")
        got = by_name.get(name)
        if got is None:
            problems.append(f"--expect: {name} is not in the run")
        elif csv_status(got) != status:
            problems.append(f"--expect: {name} is {csv_status(got)}, expected {status}")

    for p in problems:
        print(f"check_reports: {p}")
    if not problems:
        print(f"check_reports: {len(cases)} cases agree across JSON, JUnit and CSV")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
