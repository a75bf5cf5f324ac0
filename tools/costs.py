#!/usr/bin/env python3
"""The query cost table across drivers, made from the bench results kept.

    tools/costs.py [--check] [RESULTS_DIR] [OUT.md]

Writes OUT.md (default docs/costs.md) from the `vkqs bench --json` files of
RESULTS_DIR (default results/, `bench-*.json`): per device and driver (the
refdevice's architectures apart) the newest complete run of at least 5
processes per benchmark, not --quick.  Each figure is the median of the
per-process medians with its 95 % distribution-free interval (order
statistics of the process medians: the interval the median of the
distribution the processes are drawn from lies in at least 95 % of the
time); a cell is "—" where that run has no such metric (an older vkqs, or
a feature the driver lacks).  Nothing is typed by hand.  --check: exit 1
when OUT.md differs from what it would write (ctest docs.costs).  Bad
input: one line, exit 2.
"""
import glob
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import outputs  # noqa: E402

MIN_PROCESSES = 5
MODES = [("64", "64-bit"), ("64_wait", "64-bit, WAIT"), ("32", "32-bit"),
         ("64_availability", "64-bit with availability")]
COUNTS = [1, 16, 256, 4096, 65536]


def median_interval(values):
    """(median, lo, hi): lo and hi are order statistics x_(k), x_(n+1-k)
    with P(Binomial(n, 1/2) < k) <= 2.5 % (k at least 1): a 95 %
    distribution-free interval of the median."""
    x = sorted(values)
    n = len(x)
    med = x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2.0
    k, below = 0, 0.0
    while True:  # the largest k with P(B <= k - 1) <= 0.025
        nxt = below + math.comb(n, k) / 2.0 ** n
        if nxt > 0.025:
            break
        below = nxt
        k += 1
    k = max(k, 1)
    return med, x[k - 1], x[n - k]


def fmt_num(v):
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3g" % v


def scaled(unit, med):
    """The unit to print values of `unit` around `med` in, and its divisor."""
    base = unit.split("/")[0]
    rest = unit[len(base):]
    if base == "ns":
        for at, name in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
            if abs(med) >= at:
                return name + rest, at
    return unit, 1.0


def cell(metric):
    if metric is None:
        return "—"
    meds = [p["median"] for p in metric.get("per_process", [])]
    if not meds:
        return "—"
    med, lo, hi = median_interval(meds)
    unit, div = scaled(metric["unit"], med)
    unit = {"ratio": "×", "percent": "%"}.get(unit, unit)
    text = "%s %s" % (fmt_num(med / div), unit)
    if len(meds) > 1 and lo != hi:
        text += " (%s–%s)" % (fmt_num(lo / div), fmt_num(hi / div))
    return text


def label(d):
    dev = d["device"]
    knobs = d.get("refdevice")
    if dev.get("driver_name") == "refdevice":
        arch = (knobs or {}).get("RD_ARCH", "immediate")
        return "refdevice, %s (modelled)" % arch
    name = dev.get("name", "?")
    if "llvmpipe" in name:
        name = "lavapipe"
    elif "SwiftShader" in name:
        name = "SwiftShader"
    info = dev.get("driver_info") or ""
    if not info and isinstance(dev.get("driver_version"), int):  # VK_MAKE_API_VERSION
        v = dev["driver_version"]
        info = "driver %d.%d.%d" % (v >> 22 & 0x7f, v >> 12 & 0x3ff, v & 0xfff)
    return "%s %s" % (name, info or "?")


def usable(d):
    o = d.get("options") or {}
    return (d.get("format") == "vkqs-bench" and d.get("format_version", 1) >= 2
            and d.get("complete") and not o.get("quick")
            and d.get("processes_done", 0) >= MIN_PROCESSES)


def load(results_dir):
    """{label: (path, doc)}: the newest usable run per device and driver."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(results_dir, "bench-*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError("%s: not JSON: %s" % (path, e))
        if not isinstance(d, dict) or d.get("format") != "vkqs-bench":
            raise ValueError("%s: not a vkqs bench result" % path)
        if not usable(d):
            continue
        key = label(d)
        if key not in runs or d.get("started_at", "") > runs[key][1].get("started_at", ""):
            runs[key] = (path, d)
    # refdevice columns first, then by name
    return dict(sorted(runs.items(), key=lambda kv: (not kv[0].startswith("refdevice"), kv[0])))


def metric(d, bench, name):
    for b in d.get("benchmarks", []):
        if b.get("name") == "vkqs.bench." + bench and b.get("status") == "Pass":
            for m in b.get("metrics", []):
                if m.get("name") == name:
                    return m
    return None


def table(runs, title, rows):
    """rows: (row label, bench, metric)."""
    cols = list(runs)
    out = ["### " + title, "", "| | " + " | ".join(cols) + " |",
           "|---|" + "---|" * len(cols)]
    for text, bench, name in rows:
        cells = [cell(metric(runs[c][1], bench, name)) for c in cols]
        out.append("| %s | %s |" % (text, " | ".join(cells)))
    return out + [""]


HEAD = """# Query costs across drivers

Made by `tools/costs.py` from the `vkqs bench --json` files in `results/`
(ctest `docs.costs` fails when this page is stale).  Each column is the
newest complete run of at least %d processes per benchmark of one device and
driver; a figure is the median over processes of each process's median, with
its 95 %% distribution-free interval in brackets; "—" where that run has no
such figure (a vkqs before the benchmark, or a feature the driver lacks).
What each benchmark does: `docs/bench.md`.  Device-side figures are
timestamp differences; host-side ones CLOCK_MONOTONIC around the calls, on
the machine named below (the GPUs are lent virtual machines: host-side
levels move between processes, `docs/bench-stability.md`).  **The
refdevice columns are its cost model** (`refdevice/README.md`: 20 ns per
command; the tiler replays each tile), not a speed: they show what the
benchmarks see on an immediate and a tile-based architecture.
"""


def document(runs):
    out = [HEAD % MIN_PROCESSES, "## The runs", "",
           "| column | file | started | processes | samples, min time | machine |",
           "|---|---|---|---|---|---|"]
    for key, (path, d) in runs.items():
        o = d.get("options") or {}
        counts = [m.get("processes", 0) for b in d.get("benchmarks", [])
                  for m in b.get("metrics", [])] or [0]
        procs = "%d" % min(counts) if min(counts) == max(counts) else \
            "%d to %d (more where a metric was wide)" % (min(counts), max(counts))
        m = d.get("machine") or {}
        out.append("| %s | `%s` | %s | %s | %s, %g s | %s, %s CPUs |" % (
            key, os.path.basename(path), (d.get("started_at") or "?")[:10], procs,
            o.get("repeat", "?"), o.get("min_time_s", 0), m.get("cpu", "?"), m.get("cpus", "?")))
    out += ["", "## Device-side costs", ""]
    out += table(runs, "A query around each draw (ns per draw: 256 small draws, with minus "
                 "without)", [
        ("occlusion", "query.draw_cost_occlusion", "query_overhead"),
        ("occlusion, precise", "query.draw_cost_occlusion_precise", "query_overhead"),
        ("pipeline statistics", "query.draw_cost_pipeline_statistics", "query_overhead"),
        ("primitives generated", "query.draw_cost_primitives_generated", "query_overhead"),
    ])
    out += table(runs, "A timestamp write (ns per write, a chain of 1024)", [
        ("graphics, top of pipe", "timestamp.write_cost_graphics_top", "write_cost"),
        ("graphics, bottom of pipe", "timestamp.write_cost_graphics_bottom", "write_cost"),
        ("graphics, all commands", "timestamp.write_cost_graphics_all_commands", "write_cost"),
        ("compute, bottom of pipe", "timestamp.write_cost_compute_bottom", "write_cost"),
        ("transfer, bottom of pipe", "timestamp.write_cost_transfer_bottom", "write_cost"),
    ])
    out += table(runs, "Timestamp resolution: the smallest step between back-to-back "
                 "timestamps, and the same in ticks of timestampPeriod (the limit is 1)", [
        ("graphics", "timestamp.resolution_graphics", "resolution"),
        ("graphics, in ticks", "timestamp.resolution_graphics", "resolution_over_period"),
        ("compute", "timestamp.resolution_compute", "resolution"),
        ("compute, in ticks", "timestamp.resolution_compute", "resolution_over_period"),
        ("transfer", "timestamp.resolution_transfer", "resolution"),
        ("transfer, in ticks", "timestamp.resolution_transfer", "resolution_over_period"),
    ])
    out += table(runs, "vkCmdCopyQueryPoolResults and vkCmdResetQueryPool (device time)",
                 [("copy of %d result%s" % (n, "" if n == 1 else "s"), "copy.copy_and_reset_%d_queries" % n,
                   "copy_device_time") for n in (1, 256, 4096, 65536)]
                 + [("reset of %d quer%s" % (n, "y" if n == 1 else "ies"), "copy.copy_and_reset_%d_queries" % n,
                     "command_reset_device_time") for n in (1, 256, 4096, 65536)])
    out += table(runs, "The render-pass split a per-query reset forces (a 256x256 target, "
                 "16 draws in occlusion queries: one render pass against 16 with a reset "
                 "between)", [
        ("one render pass", "query.reset_split", "one_render_pass"),
        ("16 render passes", "query.reset_split", "split_per_reset"),
        ("cost of one split", "query.reset_split", "cost_per_split"),
    ])
    out += ["## Host-side costs", ""]
    out += table(runs, "vkGetQueryPoolResults of available timestamps (host latency)",
                 [("%d, %s" % (n, text), "readback.get_%d_queries_%s" % (n, mode), "latency")
                  for n in COUNTS for mode, text in MODES])
    out += table(runs, "Against the limits (64-bit results): the read's bandwidth as a share "
                 "of a memcpy of the same bytes, the copy path (vkCmdCopyQueryPoolResults "
                 "into host-cached memory, a submission, a polled fence, a read) and the "
                 "direct read's time over it", [
        row for n in COUNTS for row in (
            ("%d: bandwidth" % n, "readback.get_%d_queries_64" % n, "bandwidth"),
            ("%d: share of memcpy" % n, "readback.get_%d_queries_64" % n,
             "bandwidth_over_memcpy"),
            ("%d: copy path" % n, "readback.get_%d_queries_64" % n, "copy_path_latency"),
            ("%d: direct over copy path" % n, "readback.get_%d_queries_64" % n,
             "latency_over_copy_path"))])
    out += table(runs, "vkResetQueryPool (host time)",
                 [("%d quer%s" % (n, "y" if n == 1 else "ies"), "copy.copy_and_reset_%d_queries" % n, "host_reset_time")
                  for n in (1, 256, 4096, 65536)])
    out += table(runs, "Availability: from vkQueueSubmit until a polled query reads "
                 "available, until a polled fence signals (the limit), and their ratio", [
        ("submit to available", "availability.latency", "submit_to_available"),
        ("submit to fence, polled alone", "availability.latency", "submit_to_fence_polled"),
        ("available over fence", "availability.latency", "available_over_fence"),
        ("the work's end to available", "availability.latency", "work_end_to_available"),
    ])
    out += table(runs, "Other", [
        ("VK_QCOM_elapsed_timer_query over a timestamp pair", "elapsed.vs_timestamps",
         "elapsed_over_pair"),
        ("vkAcquireProfilingLockKHR", "perf.profiling_lock", "acquire"),
        ("calibrated timestamps: maxDeviation", "calibrated.timestamps", "max_deviation"),
        ("device clock drift against CLOCK_MONOTONIC", "calibrated.timestamps",
         "device_host_drift"),
    ])
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) > 2 or any(a.startswith("-") for a in args):
        print("usage: costs.py [--check] [RESULTS_DIR] [OUT.md]", file=sys.stderr)
        return 2
    results_dir = args[0] if args else os.path.join(ROOT, "results")
    out = args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "costs.md")
    try:
        if not os.path.isdir(results_dir):
            raise ValueError("%s: no such folder" % results_dir)
        runs = load(results_dir)
        if not runs:
            raise ValueError("%s: no complete bench run of %d or more processes"
                             % (results_dir, MIN_PROCESSES))
        return outputs.generated("costs", out, document(runs), check,
                                 [("a result", p) for p, _ in runs.values()])
    except (ValueError, outputs.OutputError, OSError) as e:
        print("costs: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
