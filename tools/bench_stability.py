#!/usr/bin/env python3
"""Stability of `vkqs bench` between two runs on one device.

    tools/bench_stability.py A.json B.json [--tolerance 3] [--filter PREFIX]...

For every metric of the timestamp and readback benchmarks (or those the
filters name) present in both runs, prints the two medians (over processes,
`vkqs bench --processes`) and their relative difference.  Device-side
metrics (timestamps on the GPU) must agree within the tolerance (percent);
a line is marked `!!` when they do not.  Host-side metrics (driver calls
timed on the CPU) are given with each run's spread over processes
(the lowest and highest per-process median): they are marked `~~` when the
two runs' spreads do not overlap, and do not count against agreement,
because their level is set per process on a shared machine
(docs/bench-stability.md).  Exit 0 when every device-side median agrees,
1 when some do not, 2 on bad input (one line on stderr).
"""
import argparse
import json
import sys

DEFAULT_PREFIXES = ["vkqs.bench.timestamp.", "vkqs.bench.readback."]

# Why a median of each kind can move between two runs, and what the
# benchmark does about it (docs/bench-stability.md has the measurements).
REASONS = {
    "host": (
        "host-side: the driver's vkGetQueryPoolResults on the CPU, and memcpy. On a shared "
        "virtual machine the cost is set per process (one process about 50 ns for one query, "
        "the next about 78 ns, whatever the CPU, address layout or allocation; 8 pools in one "
        "process agree within 8 %). The figure is the median over processes; compare it with "
        "`vkqs report --baseline`, which judges it against that spread. "
        "See docs/bench-stability.md and docs/bench-regressions.md."),
    "device": (
        "device-side: timestamps on the GPU agree within 1 % on the lent GPUs; a larger "
        "difference is the device's own (clock, power state) and is worth a look."),
}


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        _bad("%s: %s" % (path, e))
    if data.get("format") != "vkqs-bench" or data.get("format_version") not in (1, 2):
        _bad("%s: not a vkqs-bench file of format 1 or 2" % path)
    return data


def _bad(msg):
    sys.stderr.write("bench_stability: %s\n" % msg)
    sys.exit(2)


def metrics(data, prefixes):
    """(benchmark, metric) -> (median, unit, clock, lowest and highest process median,
    processes)."""
    out = {}
    for b in data["benchmarks"]:
        if b["status"] != "Pass" or not any(b["name"].startswith(p) for p in prefixes):
            continue
        for m in b["metrics"]:
            # format 1 had no clock: its readback figures were the host's
            clock = m.get("clock") or ("host" if ".readback." in b["name"] else "device")
            lo, hi = m.get("process_min", m["median"]), m.get("process_max", m["median"])
            out[(b["name"], m["name"])] = (m["median"], m["unit"], clock, lo, hi,
                                           m.get("processes", 1))
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
    ma, mb = metrics(a, prefixes), metrics(b, prefixes)
    keys = sorted(set(ma) & set(mb))
    if not keys:
        _bad("no metric in common")
    print("%s, %s vs %s (device-side tolerance %.1f %%)" % (
        a["device"]["name"], a["started_at"], b["started_at"], args.tolerance))
    bad = moved = 0
    for clock in ("device", "host"):
        ks = [k for k in keys if ma[k][2] == clock]
        if not ks:
            continue
        print("\n%s-side: median over processes%s" % (
            clock, "" if clock == "device" else " [lowest..highest process median]"))
        for k in ks:
            x, unit, _, alo, ahi, an = ma[k]
            y, _, _, blo, bhi, bn = mb[k]
            diff = _diff(x, y)
            if clock == "device":
                flag = "!!" if diff > args.tolerance else "  "
                bad += diff > args.tolerance
                print("%s %-58s %-24s %12.6g %12.6g %-9s %6.2f %%" % (
                    flag, k[0], k[1], x, y, unit, diff))
            else:
                # one process per run (format 1) has no spread to judge by
                apart = an > 1 and bn > 1 and (ahi < blo or bhi < alo)
                moved += apart
                print("%s %-58s %-24s %12.6g [%.6g..%.6g] %12.6g [%.6g..%.6g] %-6s %6.2f %%" % (
                    "~~" if apart else "  ", k[0], k[1], x, alo, ahi, y, blo, bhi, unit, diff))
        print("why %s-side figures move: %s" % (clock, REASONS[clock]))
    dev = sum(1 for k in keys if ma[k][2] == "device")
    host = len(keys) - dev
    print("\n%d of %d device-side medians agree within %.1f %%; %d of %d host-side medians "
          "moved beyond both runs' spread over processes"
          % (dev - bad, dev, args.tolerance, moved, host))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
