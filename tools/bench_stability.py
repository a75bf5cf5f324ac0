#!/usr/bin/env python3
"""Stability of `vkqs bench` between two runs on one device.

    tools/bench_stability.py A.json B.json [--tolerance 3] [--filter PREFIX]...

For every metric of the timestamp and readback benchmarks (or those the
filters name) present in both runs, prints the two medians and their
relative difference; a line is marked when the difference exceeds the
tolerance (percent).  Exit 0 when all agree, 1 when some do not, 2 on bad
input (one line on stderr).
"""
import argparse
import json
import sys

DEFAULT_PREFIXES = ["vkqs.bench.timestamp.", "vkqs.bench.readback."]


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        _bad("%s: %s" % (path, e))
    if data.get("format") != "vkqs-bench" or data.get("format_version") != 1:
        _bad("%s: not a vkqs-bench version 1 file" % path)
    return data


def _bad(msg):
    sys.stderr.write("bench_stability: %s\n" % msg)
    sys.exit(2)


def medians(data, prefixes):
    out = {}
    for b in data["benchmarks"]:
        if b["status"] != "Pass" or not any(b["name"].startswith(p) for p in prefixes):
            continue
        for m in b["metrics"]:
            out[(b["name"], m["name"])] = (m["median"], m["unit"], m["p10"], m["p90"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tolerance", type=float, default=3.0, help="percent (default 3)")
    ap.add_argument("--filter", action="append", help="benchmark name prefix")
    args = ap.parse_args()
    a, b = load(args.a), load(args.b)
    if a["device"]["name"] != b["device"]["name"]:
        _bad("the runs are of different devices: %s, %s" % (a["device"]["name"], b["device"]["name"]))
    prefixes = args.filter or DEFAULT_PREFIXES
    ma, mb = medians(a, prefixes), medians(b, prefixes)
    keys = sorted(set(ma) & set(mb))
    if not keys:
        _bad("no metric in common")
    bad = 0
    print("%s, %s vs %s (tolerance %.1f %%)" % (a["device"]["name"], a["started_at"],
                                               b["started_at"], args.tolerance))
    for k in keys:
        x, unit, _, _ = ma[k]
        y = mb[k][0]
        ref = max(abs(x), abs(y))
        diff = 0.0 if ref == 0 else 100.0 * abs(x - y) / ref
        flag = diff > args.tolerance
        bad += flag
        print("%s %-60s %-26s %12.6g %12.6g %-9s %6.2f %%" % (
            "!!" if flag else "  ", k[0], k[1], x, y, unit, diff))
    print("%d of %d medians agree within %.1f %%" % (len(keys) - bad, len(keys), args.tolerance))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
