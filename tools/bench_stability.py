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

# Why a median of each kind can move between two runs, and what the
# benchmark does about it (docs/bench-stability.md has the measurements).
REASONS = {
    "vkqs.bench.readback.": (
        "host-side: the driver's vkGetQueryPoolResults on the CPU, and memcpy. On a shared "
        "virtual machine the cost is set per process (one process about 50 ns for one query, "
        "the next about 78 ns, whatever the CPU, address layout or allocation; 8 pools in one "
        "process agree within 8 %). The benchmark times fixed batches of calls filling 50 us "
        "with two clock reads and rejects outliers; it cannot choose the host's placement. "
        "See docs/bench-stability.md."),
    "vkqs.bench.timestamp.": (
        "device-side: timestamps on the GPU agree within 1 % on the lent GPUs; a larger "
        "difference is the device's own (clock, power state) and is worth a look."),
}


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


def _diff(x, y):
    ref = max(abs(x), abs(y))
    return 0.0 if ref == 0 else 100.0 * abs(x - y) / ref


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
        diff = _diff(x, y)
        flag = diff > args.tolerance
        bad += flag
        print("%s %-60s %-26s %12.6g %12.6g %-9s %6.2f %%" % (
            "!!" if flag else "  ", k[0], k[1], x, y, unit, diff))
    print("%d of %d medians agree within %.1f %%" % (len(keys) - bad, len(keys), args.tolerance))
    moved = sorted({p for k in keys for p in REASONS
                    if k[0].startswith(p) and _diff(ma[k][0], mb[k][0]) > args.tolerance})
    for p in moved:
        n = sum(1 for k in keys if k[0].startswith(p) and _diff(ma[k][0], mb[k][0]) > args.tolerance)
        print("why %s* moved (%d): %s" % (p, n, REASONS[p]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
