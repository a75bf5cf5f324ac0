#!/usr/bin/env python3
"""docs/areas.md names every area of suite/areas.def once, and its case
counts (and the total) are those `vkqs list` gives: the page cannot go
stale unnoticed.  Usage: areas_doc.py VKQS SRCDIR"""
import re
import subprocess
import sys

vkqs, src = sys.argv[1], sys.argv[2]
areas = []
for line in open(src + "/suite/areas.def"):
    m = re.match(r"VKQS_AREA_ENTRY\(\w+, *(\w+)\)", line)
    if m and m.group(1) != "selftest" and m.group(1) not in areas:
        areas.append(m.group(1))
names = subprocess.run([vkqs, "list"], capture_output=True, text=True, check=True).stdout.split()
text = open(src + "/docs/areas.md").read()
rows = {m.group(1): int(m.group(2))
        for m in re.finditer(r"^\| `(\w+)` \|.*\| (\d+) \|$", text, re.M)}
bad = []
for a in areas:
    n = sum(1 for x in names if x.startswith("vkqs.%s." % a))
    if rows.get(a) != n:
        bad.append("%s: the page says %s cases, vkqs list %d" % (a, rows.get(a), n))
extra = sorted(set(rows) - set(areas))
if extra:
    bad.append("rows for areas that do not exist: %s" % ", ".join(extra))
m = re.search(r"\((\d+) cases\)", text)
if not m or int(m.group(1)) != len(names):
    bad.append("the total: the page says %s, vkqs list %d" % (m and m.group(1), len(names)))
for b in bad:
    print("FAILED: docs/areas.md: " + b)
print("areas_doc: %d areas, %d cases; %s" % (len(areas), len(names), "failed" if bad else "ok"))
sys.exit(1 if bad else 0)
