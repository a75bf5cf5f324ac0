#!/usr/bin/env python3
"""Comparison report of vkqs runs: one self-contained HTML page and a
Markdown summary from any number of result files.

    report.py RESULTS.json... [--html FILE] [--md FILE]
    report.py NEW.json --baseline OLD.json [--md FILE]

The page: a header per run (device, driver, API version, date, counts); a
matrix of areas x runs with the Pass / Fail / NotSupported / warning counts;
the cases whose status differs between any two runs, filterable by area and
status in the page itself (the filter also reads and writes the URL's
#area=...&status=...); the expected failures of each run with the comment of
the ci/ expectations file that explains them.  The Markdown summary has the
same matrix and the headline figures, small enough for a merge request.

--baseline compares two runs of one device for driver CI: new failures,
fixes, other changes; exit 1 when something regressed.

Bad input (a missing file, a file that is not a vkqs result, an unsupported
format version, the same run twice) is one line on stderr and exit 2, and
no output file is written.  Outputs are written whole or not at all.
"""
import argparse
import collections
import json
import math
import os
import re
import sys

try:
    import jinja2
except ImportError:  # reported when a page is asked for
    jinja2 = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import outputs  # noqa: E402
import syspython  # noqa: E402
import results_model  # noqa: E402
FORMATS = {"vkqs-results": {1}, "vkqs-bench": {1, 2, 3}}
# The bench format this vkqs writes (docs/bench-schema.md).  3: a host-clock
# sample is the fastest over the CPUs of the affinity; 2 took it on
# whichever CPU the thread was on, so the two do not compare.
BENCH_VERSION = 3

# Status words of the suite and their categories in the report.
CATEGORY = {
    "Pass": "pass",
    "Fail": "fail", "Crash": "fail", "Timeout": "fail",
    # the harness's own limits and bugs: neither the driver's Fail nor a pass
    "ResourceError": "harness", "InternalError": "harness",
    "Missing": "none",  # not run: neither pass nor fail
    "NotSupported": "notsup",
    "QualityWarning": "warn", "CompatibilityWarning": "warn",
}
CATEGORIES = ["pass", "fail", "notsup", "warn", "harness"]
CATEGORY_TITLE = {"pass": "Pass", "fail": "Fail", "notsup": "NotSupported",
                  "warn": "warnings", "harness": "harness error", "none": "not run"}
# A cell of the page: its category with what the run's expectations said,
# so that an expected Fail is not the red of a new one.
CELLS = ["unexp", "harness", "xfail", "flake", "warn", "notsup", "pass", "none"]
CELL_TITLE = {"unexp": "unexpected (fails the run)", "xfail": "expected failure",
              "harness": "harness error (InternalError, ResourceError)",
              "flake": "flake", "warn": "warning", "notsup": "NotSupported",
              "pass": "Pass", "none": "not run"}


class ReportError(Exception):
    """Bad input: one line for the user, exit 2."""


class Run:
    """One result file."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        dev = data["device"]
        self.device = dev.get("name", "?")
        self.driver = " ".join(x for x in (dev.get("driver_name", ""),
                                           dev.get("driver_info", "")) if x)
        self.api = dev.get("api_version", "?")
        self.date = data.get("started_at", "?")
        self.when = when(data)
        self.wall_s = data.get("wall_s")
        self.validation = bool(data.get("validation"))
        # vkqs >= this format records the layer that checked the run.
        v = data.get("validation")
        self.validation_layer = v.get("layer") if isinstance(v, dict) else None
        self.expectations = data.get("expectations")
        self.device_lost = data.get("device_lost")
        self.cases = collections.OrderedDict((c["name"], c) for c in data["cases"])
        self.summary = data.get("summary", {})
        # the results model (framework/record.h): a run is complete only
        # when it says so; a case not done (Missing) is not run
        self.complete = results_model.complete(data)
        self.stopped = results_model.stopped(data)
        # "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe": the driver info
        # says the rest.
        short = re.sub(r"\s*\(.*\)\s*$", "", self.device) or self.device
        self.label = "%s, %s" % (short, dev.get("driver_info") or dev.get("driver_name", "?"))

    def key(self):
        return (self.device, self.driver, self.date, self.wall_s)

    def status(self, name):
        c = self.cases.get(name)
        return c["status"] if c else None

    def counts(self):
        return collections.Counter(category(c["status"]) for c in self.cases.values())


def when(data):
    """'DATE' or 'DATE, vkqs REVISION': when a run started and, where its
    file records it, the commit its vkqs was built from."""
    rev = data.get("revision")
    date = str(data.get("started_at", "?"))
    return "%s, vkqs %s" % (date, rev) if isinstance(rev, str) and rev else date


class BenchRun:
    """One `vkqs bench` file (docs/bench-schema.md)."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        dev = data["device"]
        self.device = dev.get("name", "?")
        self.date = data.get("started_at", "?")
        self.when = when(data)
        self.wall_s = data.get("wall_s")
        self.version = data.get("format_version")
        short = re.sub(r"\s*\(.*\)\s*$", "", self.device) or self.device
        self.label = "%s, %s" % (short, dev.get("driver_info") or dev.get("driver_name", "?"))
        # the reference device's figures come from its cost model
        self.modelled = dev.get("driver_name") == "refdevice"
        if self.modelled:
            self.label = "%s (modelled)" % short
        # (benchmark, metric) -> the metric's object, for benchmarks that passed
        self.metrics = collections.OrderedDict()
        self.status = {}
        for b in data["benchmarks"]:
            self.status[b["name"]] = (b["status"], b.get("message", ""))
            for m in b.get("metrics", []):
                self.metrics[(b["name"], m["name"])] = m

    def key(self):
        return (self.device, self.date, self.wall_s, "bench")


def category(status):
    return CATEGORY.get(status, "fail") if status else "none"


def cell_category(c):
    """The page's category of a case: unexpected, expected failure, harness
    error, flake, then the status's own (the results model decides)."""
    if not c:
        return "none"
    k = results_model.case_class(c)
    cat = category(c["status"])
    if k == "not_run":
        return "none"
    if cat == "harness":
        return "harness"
    if k == "failed":
        return "unexp"
    if k == "expected_fails":
        return "xfail" if cat == "fail" else cat
    if k == "flakes":
        return "flake"
    return cat


def cell_text(c):
    if not c:
        return "not run"
    k = results_model.case_class(c)
    tag = {"failed": " (UNEXPECTED)", "expected_fails": " (expected)",
           "flakes": " (flake)"}.get(k, "")
    return c["status"] + tag


def first_failure(c):
    """What a reader needs first: the first failure, never a note."""
    f = c.get("failures") or []
    return f[0] if f else c.get("message", "")


def no_constant(name):
    """NaN and Infinity are no JSON (Python reads them): a file holding
    one is refused, never compared (a NaN median passed every metric)."""
    raise ValueError("%s is no JSON number" % name)


def read_json(path):
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except FileNotFoundError:
        raise ReportError("%s: no such file" % path)
    except IsADirectoryError:
        raise ReportError("%s: a folder (give its .json files, or the folder alone)" % path)
    except OSError as e:
        raise ReportError("%s: cannot read it: %s" % (path, e.strerror))
    try:
        return json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise ReportError("%s: not a vkqs result (JSON nested too deeply)" % path)
    except ValueError as e:
        raise ReportError("%s: not a vkqs result (not JSON: %s)" % (path, e))


def load_run(path, data=None):
    if data is None:
        data = read_json(path)
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt not in FORMATS:
        raise ReportError("%s: not a vkqs result (format %r; this report reads %s)"
                          % (path, fmt, ", ".join(sorted(FORMATS))))
    version = data.get("format_version")
    if version not in FORMATS[fmt]:
        raise ReportError("%s: %s format_version %r is not supported (this report reads %s)"
                          % (path, fmt, version, ", ".join(map(str, sorted(FORMATS[fmt])))))
    for key in ("device", "benchmarks" if fmt == "vkqs-bench" else "cases"):
        if key not in data:
            raise ReportError("%s: not a vkqs result (no %r)" % (path, key))
    if not isinstance(data["device"], dict):
        raise ReportError("%s: not a vkqs result of this shape (\"device\" is not an object)"
                          % path)
    items = data["benchmarks" if fmt == "vkqs-bench" else "cases"]
    if not isinstance(items, list):
        raise ReportError("%s: not a vkqs result of this shape (not a list of cases)" % path)
    for i, c in enumerate(items):
        if not (isinstance(c, dict) and isinstance(c.get("name"), str)
                and isinstance(c.get("status"), str)):
            raise ReportError("%s: not a vkqs result of this shape (entry %d has no name "
                              "and status)" % (path, i))
    names = collections.Counter(c["name"] for c in items)
    dup = [n for n, k in names.items() if k > 1]
    if dup:
        raise ReportError("%s: %s is listed %d times (an ambiguous result)"
                          % (path, dup[0], names[dup[0]]))
    return BenchRun(path, data) if fmt == "vkqs-bench" else Run(path, data)


def expand(paths):
    """Paths with each folder replaced by its *.json files, in name order."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            files = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".json"))
            if not files:
                raise ReportError("%s: a folder with no .json file" % p)
            out += files
        else:
            out.append(p)
    return out


def load_runs(paths):
    """(suite runs, bench runs, mutation score or None), in argument order.
    Folders give their .json files; the mutation score (vkqs-mutation) becomes
    a section; other JSON that is not a vkqs result is named and skipped."""
    keep, mutation, skipped = [], None, []
    for p in expand(paths):
        data = read_json(p)
        fmt = data.get("format") if isinstance(data, dict) else None
        if fmt == "vkqs-mutation":
            mutation = mutation_view(p, data)
        elif fmt in FORMATS:
            keep.append(p)
        else:
            skipped.append("report: skipping %s: not a vkqs result (format %r)" % (p, fmt))
    if not keep:
        raise ReportError("no vkqs result to report (%s)" % "; ".join(
            m.split(": ", 1)[1] for m in skipped) if skipped else "no vkqs result to report")
    both = load_all(keep)
    for m in skipped:
        print(m, file=sys.stderr)
    return ([r for r in both if isinstance(r, Run)],
            [r for r in both if isinstance(r, BenchRun)], mutation)


def mutation_view(path, data):
    """results/mutation.json (tools/mutation.py) as the page shows it."""
    faults = data.get("faults") or []
    variations = data.get("variations") or []
    per_area = collections.OrderedDict()
    for f in faults:
        for a in f.get("areas") or ["?"]:
            n = per_area.setdefault(a, [0, 0])
            n[0] += 1
            n[1] += bool(f.get("caught"))
    return {"file": os.path.relpath(path, ROOT) if os.path.isabs(path) else path,
            "faults": len(faults), "caught": sum(bool(f.get("caught")) for f in faults),
            "missed": [f.get("fault", "?") for f in faults if not f.get("caught")],
            "areas": sorted(per_area.items()),
            "variations": len(variations),
            "variations_passed": sum(bool(v.get("passed")) for v in variations),
            "variations_failed": ["%s (%s)" % (v.get("variation", "?"), v.get("arch", "?"))
                                  for v in variations if not v.get("passed")]}


def load_all(paths):
    runs = [load_run(p) for p in paths]
    seen = {}
    for r in runs:
        if r.key() in seen:
            raise ReportError("%s and %s are the same run (device, driver, start time and "
                              "duration agree)" % (seen[r.key()].path, r.path))
        seen[r.key()] = r
    # Runs of one device and driver (of one kind: suite or bench) get their
    # file name to tell them apart.
    labels = collections.Counter((type(r), r.label) for r in runs)
    for r in runs:
        if labels[(type(r), r.label)] > 1:
            r.label += " (%s)" % os.path.splitext(os.path.basename(r.path))[0]
    return runs


def area_of(name):
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "vkqs" else "other"


def all_names(runs):
    names = collections.OrderedDict()
    for r in runs:
        for n in r.cases:
            names.setdefault(n, None)
    return list(names)


def areas(runs):
    return list(collections.OrderedDict((area_of(n), None) for n in all_names(runs)))


def matrix(runs, cells=False):
    """{area: [Counter per run]} over the areas in first-seen order, of the
    status categories (or, cells=True, of the page's cell categories)."""
    m = collections.OrderedDict((a, [collections.Counter() for _ in runs]) for a in areas(runs))
    for i, r in enumerate(runs):
        for name, c in r.cases.items():
            m[area_of(name)][i][cell_category(c) if cells else category(c["status"])] += 1
    return m


def differences(runs):
    """The cases whose status differs between any two runs (a case a run did
    not run counts as its own status): (name, area, [case or None per run])."""
    rows = []
    for name in all_names(runs):
        per = [r.cases.get(name) for r in runs]
        if len({c["status"] if c else None for c in per}) > 1:
            rows.append((name, area_of(name), per))
    return rows


def differs_only_in_notsupported(per):
    """Whether the runs that ran a case and did not find it NotSupported
    agree: such a row says only who lacks a feature (folded by default)."""
    rest = {c["status"] for c in per if c and c["status"] != "NotSupported"}
    return len(rest) <= 1


def attention(runs):
    """Per run, what needs a reader first: its unexpected results (with
    their first failure, and the order-dependent account), the cases not
    run and why, whether it finished."""
    out = []
    for i, r in enumerate(runs):
        rows, notrun = [], collections.Counter()
        for name, c in r.cases.items():
            k = results_model.case_class(c)
            if k == "not_run":
                notrun[c.get("message") or "not run"] += 1
            elif k == "failed" or category(c["status"]) == "harness":
                rows.append({"name": name, "text": cell_text(c), "cat": cell_category(c),
                             "first": first_failure(c),
                             "more": max(0, len(c.get("failures") or []) - 1),
                             "order": c.get("order_dependent", ""),
                             "outcome": c.get("outcome", "")})
        # regressions: against the newest earlier run of this device and
        # driver on the page, cases that passed there and fail here
        prev = [p for p in runs if p is not r and p.device == r.device and
                p.driver == r.driver and p.date < r.date]
        prev = max(prev, key=lambda p: p.date) if prev else None
        regressed = []
        if prev:
            for name, c in r.cases.items():
                o = prev.cases.get(name)
                if o and category(o["status"]) in ("pass", "warn") and \
                        category(c["status"]) in ("fail", "harness"):
                    regressed.append({"name": name, "was": o["status"], "text": cell_text(c),
                                      "cat": cell_category(c)})
        out.append({"run": i, "label": r.label, "rows": rows,
                    "notrun": sorted(notrun.items(), key=lambda kv: -kv[1]),
                    "complete": r.complete, "stopped": r.stopped,
                    "prev": "%s of %s" % (prev.label, prev.date) if prev else "",
                    "regressed": regressed})
    return out


def parse_expectations(path):
    """[(pattern, status, comment)] of a ci/<driver>-fails.txt: each entry
    keeps the comment block right above it (entries in a row share one; a
    blank line ends a block, so a file's header is nobody's)."""
    out = []
    try:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    block, last_entry = [], False
    for line in lines:
        s = line.strip()
        if s.startswith("#"):
            if last_entry:
                block, last_entry = [], False
            block.append(s.lstrip("#").strip())
        elif not s:
            block, last_entry = [], False
        else:
            name, _, status = s.partition(",")
            out.append((name, status.strip(), " ".join(b for b in block if b)))
            last_entry = True
    return out


def expected_failures(run):
    """[(case, status, comment)] of the run's expected failures."""
    if not run.expectations:
        return []
    entries = []
    # the files the run applied (a prefix brings in its family), else the
    # prefixes' -fails.txt ("ci/nvidia,ci/nvidia-h200")
    files = [f["path"] for f in run.data.get("expectations_files", [])
             if f.get("path", "").endswith("-fails.txt")]
    if not files:
        files = [p + "-fails.txt" for p in run.expectations.split(",")]
    for path in files:
        if not os.path.isabs(path):
            path = os.path.join(ROOT, path)
        entries += parse_expectations(path)
    out = []
    for name, c in run.cases.items():
        if c.get("outcome") != "expected" or CATEGORY.get(c["status"]) == "pass":
            continue
        comment = ""
        # -fails.txt names cases exactly (framework/expect.c), no regex
        for entry, _, text in entries:
            if entry == name:
                comment = text
                break
        out.append((name, c["status"], comment))
    return out


def headline(run):
    """A run's counts, from its cases (the results model): a case not run
    counts as not run and unexpected, whatever an older journal said."""
    n = run.counts()
    s = run.summary
    m = results_model.counts(list(run.cases.values()))
    return {
        "cases": len(run.cases),
        "pass": n["pass"], "fail": n["fail"], "notsup": n["notsup"], "warn": n["warn"],
        "harness": n["harness"],
        "notrun": m["not_run"], "unexpected": m["unexpected"], "expected": m["expected_fails"],
        "skipped": s.get("skipped_by_list", 0),
        "complete": run.complete, "stopped": run.stopped,
    }


def incomplete_lines(runs):
    """The first words of every surface when a run did not finish."""
    return ["**INCOMPLETE: %s (`%s`) did not finish: %s; %d of %d cases not run.**"
            % (r.label, r.path, r.stopped, headline(r)["notrun"], len(r.cases))
            for r in runs if not r.complete]


def write_atomic(path, text):
    """All of text to path (tools/outputs.py: never replaces a device)."""
    outputs.write(path, text)


# Benchmarks -------------------------------------------------------------------

COLORS = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b7791f", "#c53030", "#2c7a7b"]


def bench_metrics(benches):
    """[(benchmark, metric, unit, lower_is_better, [metric or None per run])]."""
    keys = collections.OrderedDict()
    for b in benches:
        for k, m in b.metrics.items():
            keys.setdefault(k, (m["unit"], m["lower_is_better"]))
    return [(k[0], k[1], u, low, [b.metrics.get(k) for b in benches])
            for k, (u, low) in keys.items()]


def esc(t):
    return (str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def fmt_value(v):
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e9 or a < 1e-2:
        return "%.3g" % v
    if a >= 1e4:
        return "%.0f" % v
    return "%.4g" % v


def scale_for(lo, hi, width):
    """A function value -> x in [0, width]: log where the values span two
    decades or more (and are all positive), else linear from zero."""
    if lo > 0 and hi / lo >= 100:
        a, b = math.log10(lo) - 0.1, math.log10(hi) + 0.05
        return (lambda v: width * (math.log10(max(v, lo)) - a) / (b - a)), True
    top = hi if hi > 0 else 1.0
    return (lambda v: width * max(v, 0) / top), False


def short_label(label, n=36):
    """At most n characters, keeping both ends (runs of one device differ at the end)."""
    return label if len(label) <= n else label[:n // 2 - 1] + "\u2026" + label[-(n // 2):]


def svg_bars(unit, labels, metrics):
    """Median bars with p10-p90 whiskers, one row per run (None: no figure)."""
    vals = [m for m in metrics if m]
    lo = min(min(m["p10"], m["median"]) for m in vals)
    hi = max(max(m["p90"], m["median"]) for m in vals)
    lab_w, bar_w, row = 230, 280, 20
    x, logs = scale_for(lo, hi, bar_w)
    h = row * len(labels) + 18
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">'
           % (lab_w + bar_w + 90, h)]
    for i, (label, m) in enumerate(zip(labels, metrics)):
        y = i * row + 2
        out.append('<text x="0" y="%d" font-size="11">%s</text>' % (y + 12, esc(short_label(label))))
        if not m:
            out.append('<text x="%d" y="%d" font-size="11" fill="#999">no figure</text>'
                       % (lab_w, y + 12))
            continue
        c = COLORS[i % len(COLORS)]
        w = max(1.0, x(m["median"]))
        out.append('<rect x="%d" y="%d" width="%.1f" height="12" fill="%s" opacity=".8">'
                   '<title>median %s %s, p10 %s, p90 %s, %d samples</title></rect>'
                   % (lab_w, y + 2, w, c, fmt_value(m["median"]), esc(unit),
                      fmt_value(m["p10"]), fmt_value(m["p90"]), m["samples"]))
        x1, x2 = lab_w + x(m["p10"]), lab_w + x(m["p90"])
        out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#222"/>'
                   '<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#222"/>'
                   '<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#222"/>'
                   % (x1, x2, y + 8, y + 8, x1, x1, y + 4, y + 12, x2, x2, y + 4, y + 12))
        out.append('<text x="%.1f" y="%d" font-size="11">%s</text>'
                   % (lab_w + max(w, x(m["p90"])) + 4, y + 12, fmt_value(m["median"])))
    out.append('<text x="%d" y="%d" font-size="10" fill="#555">%s%s</text>'
               % (lab_w, h - 2, esc(unit), ", log scale" if logs else ""))
    out.append("</svg>")
    return "".join(out)


def svg_lines(unit, series):
    """One line per run over (x, y) points, both axes log (query counts)."""
    pts = [p for ps in series.values() for p in ps if p[1] > 0]
    if not pts:
        return ""
    w, h, left, bottom = 420, 200, 60, 24
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs)) or 1
    ly0, ly1 = math.log10(min(ys)) - 0.1, math.log10(max(ys)) + 0.1
    fx = lambda v: left + (w - left - 10) * (math.log10(v) - lx0) / ((lx1 - lx0) or 1)
    fy = lambda v: (h - bottom) - (h - bottom - 10) * (math.log10(v) - ly0) / ((ly1 - ly0) or 1)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">' % (w + 200, h)]
    for v in sorted(set(xs)):
        out.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%d</text>'
                   % (fx(v), h - 8, v))
    for d in range(int(math.floor(ly0)), int(math.ceil(ly1)) + 1):
        y = fy(10 ** d)
        if 0 <= y <= h - bottom:
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>'
                       '<text x="%d" y="%.1f" font-size="10" text-anchor="end">%s</text>'
                       % (left, w - 10, y, y, left - 4, y + 3, fmt_value(10 ** d)))
    for i, (label, ps) in enumerate(series.items()):
        c = COLORS[i % len(COLORS)]
        ps = sorted(p for p in ps if p[1] > 0)
        if not ps:
            continue
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                   % (c, " ".join("%.1f,%.1f" % (fx(a), fy(b)) for a, b in ps)))
        for a, b in ps:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %d queries, %s %s'
                       '</title></circle>' % (fx(a), fy(b), c, esc(label), a, fmt_value(b), esc(unit)))
        out.append('<text x="%d" y="%d" font-size="11" fill="%s">%s</text>'
                   % (w + 4, 14 + 16 * i, c, esc(label[:34])))
    out.append('<text x="%d" y="10" font-size="10" fill="#555">%s, log scales; x: queries</text>'
               % (left, esc(unit)))
    out.append("</svg>")
    return "".join(out)


def readback_lines(benches):
    """Per readback mode: {run label: [(query count, median latency ns)]}."""
    modes = collections.OrderedDict()
    for b in benches:
        for (name, metric), m in b.metrics.items():
            g = re.match(r"vkqs\.bench\.readback\.get_(\d+)_queries_(\w+)$", name)
            if g and metric == "latency":
                modes.setdefault(g.group(2), collections.OrderedDict()).setdefault(
                    b.label, []).append((int(g.group(1)), m["median"]))
    return modes


def bench_charts(benches):
    """[(group, [(chart id, title, description, svg)])] for the page."""
    labels = [b.label for b in benches]
    desc = {}
    for b in benches:
        for x in b.data["benchmarks"]:
            desc.setdefault(x["name"], x.get("description", ""))
    groups = collections.OrderedDict()
    for name, metric, unit, low, per in bench_metrics(benches):
        group = name.split(".")[2] if name.count(".") >= 3 else "other"
        title = "%s: %s" % (name.replace("vkqs.bench.", ""), metric)
        groups.setdefault(group, []).append(
            ("%s:%s" % (name, metric), title + (" (lower is better)" if low else ""),
             desc.get(name, ""), svg_bars(unit, labels, per)))
    for mode, series in readback_lines(benches).items():
        groups.setdefault("readback", []).insert(
            0, ("readback-lines:%s" % mode, "readback latency against query count (%s)" % mode,
                "the median latency of each readback benchmark of this mode",
                svg_lines("ns", series)))
    return list(groups.items())


HEADLINES = [
    ("timestamp resolution", "vkqs.bench.timestamp.resolution_graphics", "resolution"),
    ("timestamp write", "vkqs.bench.timestamp.write_cost_graphics_bottom", "write_cost"),
    ("readback, 1 query", "vkqs.bench.readback.get_1_queries_64", "latency"),
    ("readback, 65536 queries", "vkqs.bench.readback.get_65536_queries_64", "latency"),
    ("submit to available", "vkqs.bench.availability.latency", "submit_to_available"),
    ("precise occlusion per draw", "vkqs.bench.query.draw_cost_occlusion_precise", "query_overhead"),
]


def bench_markdown(benches):
    out = ["", "Benchmark headline figures (medians):", "",
           "| run | " + " | ".join(h[0] for h in HEADLINES) + " |",
           "|---|" + "---|" * len(HEADLINES)]
    for b in benches:
        cells = []
        for _, name, metric in HEADLINES:
            m = b.metrics.get((name, metric))
            cells.append("%s %s" % (fmt_value(m["median"]), m["unit"]) if m else "-")
        out.append("| %s | %s |" % (b.label, " | ".join(cells)))
    return out


# Markdown ---------------------------------------------------------------------

def mutation_markdown(m):
    out = ["## Mutation score", "",
           "%d of %d injected refdevice faults caught; %d of %d legal variation runs pass "
           "(`%s`)." % (m["caught"], m["faults"], m["variations_passed"], m["variations"],
                        m["file"]), "",
           "| area | faults | caught |", "|---|---|---|"]
    out += ["| %s | %d | %d |" % (a, n, c) for a, (n, c) in m["areas"]]
    if m["missed"]:
        out += ["", "Not caught: " + ", ".join(m["missed"])]
    return out + [""]


def markdown(runs, benches=(), mutation=None):
    out = ["# vkqs comparison", ""]
    if mutation:
        out += mutation_markdown(mutation)
    if not runs:
        return "\n".join(out + bench_markdown(benches)[1:]) + "\n"
    inc = incomplete_lines(runs)
    if inc:
        out = ["# vkqs comparison: INCOMPLETE", ""] + inc + [""] + out[2:]
    att = [a for a in attention(runs) if a["rows"] or a["notrun"] or a["regressed"]]
    out += ["## Needs attention", ""]
    if not att:
        out += ["Nothing unexpected in any run.", ""]
    for a in att:
        out.append("- **%s**: %d unexpected%s" % (
            a["label"], len(a["rows"]),
            "; %d not run" % sum(n for _, n in a["notrun"]) if a["notrun"] else ""))
        out += ["  - `%s` %s: %s" % (x["name"], x["text"], x["first"][:200]) for x in a["rows"][:20]]
        if a["regressed"]:
            out.append("  - %d regression(s) against %s: %s" % (
                len(a["regressed"]), a["prev"],
                ", ".join("`%s` (%s, then %s)" % (x["name"], x["was"], x["text"])
                          for x in a["regressed"][:10])))
    out += [""]
    out.append("| run | API | date | cases | Pass | Fail | NotSupported | warnings | "
               "harness errors | not run | expected | unexpected |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        h = headline(r)
        out.append("| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            r.label, r.api, r.date, h["cases"], h["pass"], h["fail"], h["notsup"], h["warn"],
            h["harness"], h["notrun"], h["expected"], h["unexpected"]))
    out += ["", "Pass / Fail / NotSupported / warnings per area:", ""]
    out.append("| area | " + " | ".join(r.label for r in runs) + " |")
    out.append("|---|" + "---|" * len(runs))
    for a, per in matrix(runs).items():
        cells = ["%d / %d / %d / %d" % (c["pass"], c["fail"], c["notsup"], c["warn"])
                 if sum(c.values()) else "-" for c in per]
        out.append("| %s | %s |" % (a, " | ".join(cells)))
    diffs = differences(runs)
    out += ["", "%d cases differ between runs." % len(diffs), ""]
    if benches:
        out += bench_markdown(benches) + [""]
    return "\n".join(out)


# HTML -------------------------------------------------------------------------

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>vkqs comparison: {{ runs|length }} runs</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em 1.5em; color: #1d1d1f; max-width: none; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.15em; margin: 1.6em 0 .5em; }
.runs { display: flex; flex-wrap: wrap; gap: .8em; }
.run { border: 1px solid #ccd; border-radius: 6px; padding: .6em .8em; min-width: 15em; max-width: 30em; }
.run b { display: block; } .run small { color: #555; display: block; }
.lost { color: #a00; font-weight: bold; }
table { border-collapse: collapse; } td, th { border: 1px solid #dde; padding: .25em .5em; }
th { background: #f4f4f8; text-align: left; position: sticky; top: 0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.cell { display: flex; gap: 2px; } .cell span { padding: 0 .35em; border-radius: 3px; }
.pass { background: #d4f4d4; } .fail, .unexp { background: #f4a29b; font-weight: bold; }
.notsup { background: #e4e4e8; } .warn { background: #fbe7b4; } .none { background: #fff; color: #999; }
.xfail { background: repeating-linear-gradient(135deg, #f6e6e4, #f6e6e4 4px, #fff 4px, #fff 8px); color: #6b3a36; }
.harness { background: #ddd0f2; } .flake { background: #fde0c2; }
.bar { display: flex; height: .7em; width: 9em; border-radius: 2px; overflow: hidden; }
.bar div.pass { background: #3a3; } .bar div.fail, .bar div.unexp { background: #d33; }
.bar div.xfail { background: #e8b4ae; } .bar div.harness { background: #8a6cc4; }
.bar div.flake { background: #f39c4a; } .bar div.none { background: #eee; }
.bar div.notsup { background: #bbb; } .bar div.warn { background: #e9a400; }
td.st { white-space: nowrap; } td.msg { color: #444; font-size: .85em; min-width: 20em; }
td.case { min-width: 22em; max-width: 34em; } #diffs, #matrix { width: 100%; }
#diffs th { font-size: .9em; }
#attention .att { margin: .4em 0 .8em; } #attention ul { margin: .2em 0; padding-left: 1.2em; }
#attention li { margin: .15em 0; } #attention .ok { color: #2a7a2a; }
.modelled { color: #8a5a00; font-style: italic; }
#filters { margin: .5em 0; display: flex; gap: 1em; align-items: center; }
tr[hidden] { display: none; }
.legend span { padding: 0 .4em; margin-right: .3em; border-radius: 3px; }
code { font-size: .92em; }
.charts { display: flex; flex-wrap: wrap; gap: .8em; }
.chart { border: 1px solid #dde; border-radius: 6px; padding: .4em .6em; }
.chart b { display: block; font-size: .95em; } .chart small { display: block; color: #555; max-width: 36em; }
.incomplete { color: #a00; font-weight: bold; }
</style></head><body>
{% for line in incomplete %}<p class="incomplete">INCOMPLETE: {{ line }}</p>
{% endfor %}<h1>vkqs comparison</h1>
<p class="legend">{% for k in cells %}<span class="{{ k }}">{{ celltitles[k] }}</span>{% endfor %}</p>
{% if runs %}<h2 id="attention">Needs attention</h2>
{% for a in attention %}<div class="att" data-attention="{{ a.run }}"><b>{{ a.label }}</b>: {% if not a.rows and not a.notrun and a.complete and not a.regressed %}<span class="ok">nothing unexpected</span>{% else %}{{ a.rows|length }} unexpected{% if a.notrun %}, {{ a.notrun|sum(attribute=1) }} not run{% endif %}{% if not a.complete %}, <span class="incomplete">incomplete: {{ a.stopped }}</span>{% endif %}{% endif %}
{% if a.rows %}<ul>{% for x in a.rows[:50] %}<li data-case="{{ x.name }}"><span class="{{ x.cat }}">{{ x.text }}</span> <code>{{ x.name|wbr }}</code>: {{ x.first|truncate(400) }}{% if x.more %} <small>(+{{ x.more }} more failures)</small>{% endif %}{% if x.order %}<br><small>{{ x.order|truncate(400) }}</small>{% endif %}</li>{% endfor %}{% if a.rows|length > 50 %}<li>and {{ a.rows|length - 50 }} more (status filter: unexpected)</li>{% endif %}</ul>{% endif %}
{% if a.regressed %}<div>{{ a.regressed|length }} regression(s) against {{ a.prev }}:<ul>{% for x in a.regressed[:30] %}<li data-regressed="{{ x.name }}">{{ x.was }} &rarr; <span class="{{ x.cat }}">{{ x.text }}</span> <code>{{ x.name|wbr }}</code></li>{% endfor %}</ul></div>{% endif %}
{% if a.notrun %}<ul>{% for why, n in a.notrun %}<li><span class="none">{{ n }} not run</span>: {{ why|truncate(300) }}</li>{% endfor %}</ul>{% endif %}</div>
{% endfor %}<h2>Runs</h2>
<div class="runs">
{% for r in runs %}<div class="run" data-run="{{ loop.index0 }}"><b>{{ r.label }}</b>
<small>Vulkan {{ r.api }} &middot; {{ r.date }}{% if r.wall_s is not none %} &middot; {{ '%.1f'|format(r.wall_s) }} s{% endif %}{% if r.validation %} &middot; validation{% if r.validation_layer %} (layer {{ r.validation_layer }}){% endif %}{% endif %}</small>
<small>{{ r.h.cases }} cases: {{ r.h.pass }} Pass, {{ r.h.fail }} Fail, {{ r.h.notsup }} NotSupported, {{ r.h.warn }} warnings, {{ r.h.harness }} harness errors, {{ r.h.notrun }} not run; {{ r.h.expected }} expected, {{ r.h.unexpected }} unexpected{% if r.h.skipped %}, {{ r.h.skipped }} skipped by list{% endif %}</small>
{% if r.device_lost %}<small class="lost">device lost at {{ r.device_lost.at }}</small>{% endif %}
<small><code>{{ r.file }}</code></small></div>
{% endfor %}</div>

<h2>Areas</h2>
<table id="matrix"><tr><th>area</th>{% for r in runs %}<th>{{ r.label }}</th>{% endfor %}</tr>
{% for a, per in matrix %}<tr data-area="{{ a }}"><td>{{ a }}</td>{% for c in per %}<td>{% set t = c.values()|sum %}{% if t %}<div class="cell">{% for k in cells %}{% if c[k] %}<span class="{{ k }}" title="{{ celltitles[k] }}">{{ c[k] }}</span>{% endif %}{% endfor %}</div><div class="bar">{% for k in cells %}{% if c[k] %}<div class="{{ k }}" style="width:{{ 100 * c[k] / t }}%"></div>{% endif %}{% endfor %}</div>{% else %}<span class="none">&ndash;</span>{% endif %}</td>{% endfor %}</tr>
{% endfor %}</table>

<h2>Cases that differ ({{ diffs|length }})</h2>
<div id="filters">
<label>area <select id="f-area"><option value="">all</option>{% for a in areas %}<option>{{ a }}</option>{% endfor %}</select></label>
<label>status <select id="f-status"><option value="">any</option><option value="unexp">unexpected in some run</option>{% for k in cats + ['none'] %}<option value="{{ k }}">{{ titles[k] }} in some run</option>{% endfor %}<option value="xfail">expected failure in some run</option></select></label>
<label><input type="checkbox" id="f-ns"> rows that differ only in NotSupported ({{ nsonly }})</label>
<span id="f-count"></span></div>
<table id="diffs"><tr><th>case</th>{% for r in runs %}<th>{{ r.label }}</th>{% endfor %}<th>message</th></tr>
{% for name, area, per in diffs %}<tr data-area="{{ area }}" data-cats="{% for c in per %}{{ cat(c) }} {{ cell(c) }} {% endfor %}"{% if nsonly_row(per) %} data-nsonly="1"{% endif %}><td class="case"><code>{{ name|wbr }}</code></td>{% for c in per %}<td class="st {{ cell(c) }}" title="{{ c.message if c else '' }}">{{ celltext(c) }}</td>{% endfor %}<td class="msg">{% for c in per %}{% if c and (c.failures or c.message) %}<div><b>{{ runs[loop.index0].label }}:</b> {{ first(c)|truncate(300) }}</div>{% endif %}{% endfor %}</td></tr>
{% endfor %}</table>

<h2>Expected failures</h2>
{% for r in runs %}{% if r.xfails %}<h3>{{ r.label }} <small>({{ r.xfails|length }}, <code>{{ r.expectations }}-fails.txt</code>)</small></h3>
<table class="xfail"><tr><th>case</th><th>status</th><th>why (the expectation's comment)</th></tr>
{% for name, st, why in r.xfails %}<tr><td><code>{{ name }}</code></td><td class="st {{ catname(st) }}">{{ st }}</td><td class="msg">{{ why }}</td></tr>
{% endfor %}</table>{% endif %}{% endfor %}{% endif %}

{% if mutation %}<h2 id="mutation">Mutation score</h2>
<p>{{ mutation.caught }} of {{ mutation.faults }} faults injected into the reference device are caught by a failing case; {{ mutation.variations_passed }} of {{ mutation.variations }} runs under legal variations pass (<code>{{ mutation.file }}</code>).{% if mutation.missed %} Not caught: {{ mutation.missed|join(", ") }}.{% endif %}{% if mutation.variations_failed %} Failing variations: {{ mutation.variations_failed|join(", ") }}.{% endif %}</p>
<table class="mutation"><tr><th>area</th><th>faults</th><th>caught</th></tr>
{% for a, n in mutation.areas %}<tr><td>{{ a }}</td><td>{{ n[0] }}</td><td class="{{ 'pass' if n[0] == n[1] else 'fail' }}">{{ n[1] }}</td></tr>
{% endfor %}</table>{% endif %}

{% if benches %}<h2 id="benchmarks">Benchmarks</h2>
<div class="runs">
{% for b in benches %}<div class="run bench-run"><b>{{ b.label }}</b>
<small>{{ b.date }}{% if b.wall_s is not none %} &middot; {{ '%.1f'|format(b.wall_s) }} s{% endif %} &middot; {{ b.n }} benchmarks, {{ b.figures }} with figures</small>
<small><code>{{ b.file }}</code></small></div>
{% endfor %}</div>
<p>Bars: the median; whiskers: p10 to p90 of the samples kept; a log scale where the values span two decades.{% if modelled %} <span class="modelled">Runs marked "modelled" are the reference device's cost model (a fixed cost per command), not a measurement of hardware: compare them with nothing.</span>{% endif %}</p>
{% for group, charts in bench_groups %}<h3>{{ group }}</h3><div class="charts">
{% for id, title, desc, svg in charts %}<div class="chart" data-metric="{{ id }}"><b>{{ title }}</b><small>{{ desc }}</small>{{ svg|safe }}</div>
{% endfor %}</div>{% endfor %}{% endif %}

<script>
(function () {
  var area = document.getElementById('f-area'), status = document.getElementById('f-status');
  var ns = document.getElementById('f-ns');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#diffs tr[data-area]'));
  function apply(write) {
    var shown = 0;
    rows.forEach(function (tr) {
      var ok = (!area.value || tr.dataset.area === area.value) &&
               (!status.value || tr.dataset.cats.split(' ').indexOf(status.value) >= 0) &&
               (ns.checked || !tr.dataset.nsonly);
      tr.hidden = !ok; if (ok) shown++;
    });
    document.getElementById('f-count').textContent = shown + ' of ' + rows.length + ' shown';
    if (write) location.hash = 'area=' + encodeURIComponent(area.value) +
                               '&status=' + encodeURIComponent(status.value) +
                               (ns.checked ? '&ns=1' : '');
  }
  var h = {}; location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var p = kv.split('='); if (p[0]) h[p[0]] = decodeURIComponent(p[1] || '');
  });
  if (h.area) area.value = h.area; if (h.status) status.value = h.status;
  ns.checked = h.ns === '1';
  area.onchange = status.onchange = ns.onchange = function () { apply(true); };
  apply(false);
})();
</script>
</body></html>
"""


def render_html(runs, benches=(), mutation=None):
    if jinja2 is None:
        raise ReportError("--html needs python3-jinja2 (ci/setup.sh installs it)")
    env = jinja2.Environment(autoescape=True)
    env.globals["cat"] = lambda c: category(c["status"] if c else None)
    env.globals["catname"] = category
    env.globals["cell"] = cell_category
    env.globals["celltext"] = cell_text
    env.globals["first"] = first_failure
    env.globals["nsonly_row"] = differs_only_in_notsupported
    # case names break after '.' and '_', never mid-token
    import markupsafe  # jinja2's own dependency
    env.filters["wbr"] = lambda t: markupsafe.Markup(
        re.sub(r"([._])", r"\1<wbr>", str(markupsafe.escape(t))))
    views = []
    for r in runs:
        views.append({"label": r.label, "api": r.api, "date": r.date, "wall_s": r.wall_s,
                      "validation": r.validation, "validation_layer": r.validation_layer,
                      "device_lost": r.device_lost,
                      "file": os.path.relpath(r.path, ROOT) if os.path.isabs(r.path) else r.path,
                      "h": headline(r), "expectations": r.expectations,
                      "xfails": expected_failures(r)})
    bviews = [{"label": b.label, "date": b.date, "wall_s": b.wall_s,
               "file": os.path.relpath(b.path, ROOT) if os.path.isabs(b.path) else b.path,
               "n": len(b.status), "figures": len({k[0] for k in b.metrics})} for b in benches]
    incomplete = ["%s (%s) did not finish: %s; %d of %d cases not run"
                  % (r.label, r.path, r.stopped, headline(r)["notrun"], len(r.cases))
                  for r in runs if not r.complete]
    diffs = differences(runs)
    return env.from_string(PAGE).render(
        incomplete=incomplete, runs=views, matrix=list(matrix(runs, cells=True).items()),
        diffs=diffs, nsonly=sum(differs_only_in_notsupported(per) for _, _, per in diffs),
        attention=attention(runs), areas=areas(runs), cats=CATEGORIES, titles=CATEGORY_TITLE,
        cells=CELLS, celltitles=CELL_TITLE, benches=bviews,
        modelled=any(b.modelled for b in benches),
        bench_groups=bench_charts(benches) if benches else [], mutation=mutation)


# Baseline ---------------------------------------------------------------------

def configuration(run):
    """What a comparison must share (refused) and what it reports."""
    d = run.data
    files = ", ".join("%s %s" % (f.get("path"), str(f.get("sha256"))[:12])
                      for f in d.get("expectations_files") or [] if isinstance(f, dict))
    return {"refdevice knobs": json.dumps(d.get("refdevice") or {}, sort_keys=True),
            "driver": run.driver, "validation layer": run.validation_layer or
            ("on" if run.validation else "off"),
            "expectations": files or "none"}


def baseline(new, old):
    """(regressions, fixes, changes, notes): rows (name, old status, new
    status); notes say how the two configurations differ."""
    if new.device != old.device:
        raise ReportError("--baseline compares runs of one device: %s is %s, %s is %s"
                          % (old.path, old.device, new.path, new.device))
    cn, co = configuration(new), configuration(old)
    if cn["refdevice knobs"] != co["refdevice knobs"]:
        raise ReportError("--baseline compares one configuration: %s ran the refdevice with "
                          "%s, %s with %s" % (new.path, cn["refdevice knobs"], old.path,
                                             co["refdevice knobs"]))
    for r in (new, old):
        if not r.complete:
            raise ReportError("%s is an incomplete run (%s): complete it (vkqs run --resume) "
                              "before comparing" % (r.path, r.stopped))
    missing = [n for n in old.cases if n not in new.cases]
    if missing:
        raise ReportError("%s lacks %d of the %d cases of %s (first: %s): an incomplete "
                          "comparison shows no regression" % (new.path, len(missing),
                                                              len(old.cases), old.path,
                                                              missing[0]))
    notes = ["%s: %s, then %s" % (k, co[k], cn[k]) for k in cn if cn[k] != co[k]]
    regressions, fixes, changes = [], [], []
    for name in all_names([old, new]):
        a, b = old.status(name), new.status(name)
        if a == b:
            continue
        ca, cb = category(a), category(b)
        row = (name, a or "not run", b or "not run")
        if cb in ("fail", "harness") and ca not in ("fail", "harness"):
            regressions.append(row)
        elif ca == "fail" and cb == "pass":
            fixes.append(row)
        else:
            changes.append(row)
    return regressions, fixes, changes, notes


# The regression rule of docs/bench-regressions.md.  A metric is the
# per-process medians of each run.  Their shift between the runs is the
# Hodges-Lehmann estimate (the median of every new - old difference) with
# the Mann-Whitney confidence interval: the shifts the rank test does not
# reject, at a level whose false-alarm rate over the whole comparison is
# at most FALSE_ALARM (Bonferroni over the metrics compared; exact when
# processes of two runs of one build are exchangeable).  Both are relative
# to the baseline's figure.  A metric's smallest detectable change is the
# interval's half-width, at least the floor of its clock: a shift that
# large moves the interval off zero.  A change is flagged when the
# interval excludes no change and the shift is at least that.  A
# metric not flagged whose interval is wider than +-USEFUL is too noisy to
# judge: more processes narrow it (as 1 / sqrt(processes)).
MAIN = False  # run as a program (it may then re-execute itself)
FALSE_ALARM = 0.01
FLOOR = {"device": 0.03, "host": 0.10}
USEFUL = 0.25
EXACT_RANKS = 40  # values (old + new) up to which the rank test is exact


def process_medians(m):
    """The per-process medians of a metric (one for a format 1 file)."""
    per = m.get("per_process")
    return [p["median"] for p in per] if per else [m["median"]]


def scipy_stats():
    """scipy.stats (python3-scipy); as a program under another python3 than
    the system's, the system's is tried (tools/syspython.py); without it,
    one line and exit 2."""
    if MAIN:
        syspython.reexec_for("scipy.stats")
    try:
        import scipy.stats
        return scipy.stats
    except ImportError:
        raise ReportError("comparing bench results needs python3-scipy (ci/setup.sh installs "
                          "it)") from None


def mw_p(stats, a, b):
    """Two-sided Mann-Whitney p-value of samples a and b (scipy; exact up
    to EXACT_RANKS values, the normal approximation with ties corrected
    past that)."""
    if min(a) == max(a) == min(b) == max(b):
        return 1.0
    method = "exact" if len(a) + len(b) <= EXACT_RANKS else "asymptotic"
    return float(stats.mannwhitneyu(b, a, alternative="two-sided", method=method).pvalue)


def shift_interval(stats, a, b, alpha):
    """(Hodges-Lehmann shift of b against a, lower, upper): the interval
    holds the shifts d for which b - d and a are not told apart at alpha
    (the Mann-Whitney test inverted); its ends are pairwise differences."""
    d = sorted(y - x for x in a for y in b)
    n = len(d)
    hl = d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2.0

    def accepted(i):
        return mw_p(stats, a, [y - d[i] for y in b]) > alpha

    # the p-value rises towards the estimate from either side: the first
    # accepted difference below it and the last above it
    lo_i, hi_i = 0, n // 2
    while lo_i < hi_i:
        mid = (lo_i + hi_i) // 2
        if accepted(mid):
            hi_i = mid
        else:
            lo_i = mid + 1
    lo = d[lo_i]
    lo_j, hi_j = (n - 1) // 2, n - 1
    while lo_j < hi_j:
        mid = (lo_j + hi_j + 1) // 2
        if accepted(mid):
            lo_j = mid
        else:
            hi_j = mid - 1
    hi = d[lo_j]
    return hl, min(lo, hl), max(hi, hl)


def min_processes(metrics):
    """Processes per run an exact two-sided rank test needs to reach the
    level that judges `metrics` metrics at all."""
    k = 1
    while 2 / math.comb(2 * k, k) > FALSE_ALARM / max(metrics, 1):
        k += 1
    return k


# A metric that is a difference - signed, near zero when nothing differs -
# has no meaningful change relative to itself: -240 ns moving to -160 ns is
# "+33 %" of nothing.  Its shift is relative to the quantity it is the
# difference of: `<x>.difference` (serialized minus unserialized time,
# suite/bench/workload.c) to the baseline's `<x>.serialized`, and a drift
# in ppm (one clock's rate against another's) to the rate, 10^6 ppm.
PPM_SCALE = 1e6


def relative_scale(key, metrics):
    """What a metric's shift is relative to: the baseline's figure, or for
    a difference the quantity it is the difference of (metrics: the
    baseline run's, by (benchmark, metric))."""
    bench, metric = key
    m = metrics[key]
    if metric.endswith(".difference"):
        whole = metrics.get((bench, metric[:-len(".difference")] + ".serialized"))
        if whole is not None:
            return abs(whole["median"])
    if m.get("unit") == "ppm":
        return PPM_SCALE
    return abs(m["median"])


class Judged:
    """One metric of a bench baseline comparison."""

    def __init__(self, stats, key, o, m, alpha, scale=None):
        self.bench, self.metric = key
        self.unit = m["unit"]
        self.clock = m.get("clock", "device")
        self.old, self.new = o["median"], m["median"]
        a, b = process_medians(o), process_medians(m)
        self.processes = (len(a), len(b))
        floor = FLOOR.get(self.clock, FLOOR["device"])
        hl, lo, hi = shift_interval(stats, a, b, alpha)
        self.p = mw_p(stats, a, b)
        if scale is None:
            scale = abs(self.old)
        self.scale = scale
        if scale:
            self.change, self.lo, self.hi = hl / scale, lo / scale, hi / scale
        else:  # a baseline of 0: only "no change" or an infinite relative one
            rel = lambda v: 0.0 if v == 0 else math.copysign(math.inf, v)  # noqa: E731
            self.change, self.lo, self.hi = rel(hl), rel(lo), rel(hi)
        half = (self.hi - self.lo) / 2.0
        self.detectable = max(floor, half)
        low = m["lower_is_better"]
        # worse: higher for lower-is-better metrics
        worse_change = self.change if low else -self.change
        off_zero = self.lo > 0 or self.hi < 0
        self.noisy = not off_zero and half > USEFUL
        self.verdict = "noisy" if self.noisy else "same"
        if off_zero and worse_change >= self.detectable:
            self.verdict = "worse"
        elif off_zero and -worse_change >= self.detectable:
            self.verdict = "better"


def require_processes(runs, keys):
    """Raises ReportError unless each run has enough processes per benchmark
    to judge `keys` at FALSE_ALARM over the whole comparison."""
    need = min_processes(len(keys))
    for run in runs:
        few = min(len(process_medians(run.metrics[k])) for k in keys)
        if few < need:
            raise ReportError(
                "%s has %d process%s per benchmark: judging %d metrics at a %g %% false-alarm "
                "rate needs %d (vkqs bench --processes %d)"
                % (run.path, few, "" if few == 1 else "es", len(keys), 100 * FALSE_ALARM, need,
                   need))


def bench_baseline_usable(old):
    """Raises ReportError unless a bench result can serve as a baseline on
    its own (vkqs bench --baseline asks before it runs anything)."""
    if not old.metrics:
        raise ReportError("%s has no benchmark metric" % old.path)
    if old.version != BENCH_VERSION:
        raise ReportError(same_method_message(old.path, old.version, "this vkqs", BENCH_VERSION))
    require_processes([old], list(old.metrics))


def same_method_message(old_path, old_version, new_name, new_version):
    return ("%s is a bench result of format_version %s, %s of %s: host-clock samples are "
            "taken another way (docs/bench-schema.md), so the two do not compare; run the "
            "baseline again with the same vkqs" % (old_path, old_version, new_name, new_version))


def bench_baseline(new, old):
    """(regressions, improvements, too noisy, all judged): Judged rows."""
    if new.device != old.device:
        raise ReportError("--baseline compares runs of one device: %s is %s, %s is %s"
                          % (old.path, old.device, new.path, new.device))
    if new.version != old.version:
        raise ReportError(same_method_message(old.path, old.version, new.path, new.version))
    keys = [k for k in new.metrics if k in old.metrics]
    if not keys:
        raise ReportError("%s and %s have no benchmark metric in common" % (new.path, old.path))
    alpha = FALSE_ALARM / len(keys)
    require_processes([old, new], keys)
    stats = scipy_stats()
    rows = [Judged(stats, k, old.metrics[k], new.metrics[k], alpha,
                   relative_scale(k, old.metrics)) for k in keys]
    return ([r for r in rows if r.verdict == "worse"], [r for r in rows if r.verdict == "better"],
            [r for r in rows if r.verdict == "noisy"], rows)


def pct(x):
    return "inf" if math.isinf(x) else "%+.1f %%" % (100 * x)


def interval(r):
    return "%s .. %s" % (pct(r.lo), pct(r.hi))


def threshold_summary(rows):
    """Per clock: (metrics judged, least, median, most smallest detectable
    change) of those judged, and how many are too noisy."""
    out = {}
    for clock in ("device", "host"):
        th = sorted(r.detectable for r in rows if r.clock == clock and not r.noisy)
        noisy = sum(1 for r in rows if r.clock == clock and r.noisy)
        if th or noisy:
            out[clock] = (len(th), th[0] if th else None, th[len(th) // 2] if th else None,
                          th[-1] if th else None, noisy)
    return out


def bench_baseline_markdown(new, old, result):
    worse, better, noisy, rows = result
    procs = sorted({p for r in rows for p in r.processes})
    out = ["# vkqs bench: %s against its baseline" % new.label, "",
           "%s (%s) against %s (%s): %d metrics compared, %d regressed, %d improved, %d too "
           "noisy to judge.  The rule (docs/bench-regressions.md): per metric, the shift of "
           "the per-process medians (Hodges-Lehmann) and its Mann-Whitney interval at a "
           "%g %% false-alarm rate for the whole comparison; flagged when the interval "
           "excludes no change and the shift is at least the metric's smallest detectable "
           "change (the interval's half-width, at least %d %% device-side, %d %% "
           "host-side); too noisy when the interval is wider than +-%d %% (%s processes "
           "per run: more narrow it)."
           % (new.path, new.when, old.path, old.when, len(rows), len(worse), len(better),
              len(noisy), 100 * FALSE_ALARM, 100 * FLOOR["device"], 100 * FLOOR["host"],
              100 * USEFUL, "/".join(str(p) for p in procs))]
    out += ["", "| clock | metrics judged | smallest detectable change: least / median / most "
                "| too noisy |", "|---|---|---|---|"]
    for clock, (n, lo, med, hi, nz) in threshold_summary(rows).items():
        out.append("| %s | %d | %s | %d |" % (
            clock, n, "%.1f / %.1f / %.1f %%" % (100 * lo, 100 * med, 100 * hi) if n else "-", nz))
    head = ("| benchmark | metric | clock | before | now | shift | interval | smallest "
            "detectable | p |", "|---|---|---|---|---|---|---|---|---|")

    def row(r):
        return "| `%s` | %s | %s | %s %s | %s %s | %s | %s | %.1f %% | %.2g |" % (
            r.bench, r.metric, r.clock, fmt_value(r.old), r.unit, fmt_value(r.new), r.unit,
            pct(r.change), interval(r), 100 * r.detectable, r.p)
    for title, rs in (("Regressions", worse), ("Improvements", better)):
        if rs:
            out += ["", "## " + title, ""] + list(head) + [row(r) for r in rs]
    if noisy:
        out += ["", "## Too noisy to judge", "",
                "Their interval is wider than +-%d %%: a change that large could hide in where "
                "each process landed.  More processes narrow it." % (100 * USEFUL), ""]
        out += list(head) + [row(r) for r in noisy]
    out += ["", "## Every metric", "", "| benchmark | metric | clock | verdict | shift | "
            "interval | smallest detectable |", "|---|---|---|---|---|---|---|"]
    out += ["| `%s` | %s | %s | %s | %s | %s | %.1f %% |" % (
        r.bench, r.metric, r.clock, r.verdict, pct(r.change), interval(r), 100 * r.detectable)
        for r in rows]
    return "\n".join(out) + "\n"


def baseline_markdown(new, old, result):
    regressions, fixes, changes, notes = result
    out = ["# vkqs: %s against its baseline" % new.label, "",
           "%s (%s) against %s (%s): %d new failures, %d fixes, %d other changes."
           % (new.path, new.when, old.path, old.when, len(regressions), len(fixes),
              len(changes))]
    if notes:
        out += ["", "Configuration changed: " + "; ".join(notes) + "."]
    for title, rows in (("New failures", regressions), ("Fixes", fixes),
                        ("Other changes", changes)):
        if rows:
            out += ["", "## " + title, "", "| case | before | now |", "|---|---|---|"]
            out += ["| `%s` | %s | %s |" % row for row in rows]
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="report.py", description="Comparison report of vkqs result files.")
    ap.add_argument("results", nargs="+", metavar="RESULTS.json",
                    help="result files, or folders of them (results/)")
    ap.add_argument("--html", metavar="FILE", help="the self-contained page")
    ap.add_argument("--md", metavar="FILE", help="the Markdown summary")
    ap.add_argument("--baseline", metavar="OLD.json",
                    help="compare one run with an earlier run of the same device; exit 1 "
                         "when something regressed")
    ap.add_argument("--check-baseline", action="store_true",
                    help="only whether RESULTS.json, a bench result, can be a baseline "
                         "(vkqs bench --baseline asks before it runs)")
    args = ap.parse_args(argv)
    try:
        try:
            outputs.check_all(
                [(opt, out) for opt, out in (("--html", args.html), ("--md", args.md))
                 if out is not None],
                [("the result " + p, p) for p in args.results
                 if os.path.exists(p) and not os.path.isdir(p)]
                + ([("the baseline " + args.baseline, args.baseline)] if args.baseline else []))
        except outputs.OutputError as e:
            raise ReportError(str(e))
        if args.check_baseline:
            if len(args.results) != 1 or args.html or args.md or args.baseline:
                raise ReportError("--check-baseline takes one bench result and nothing else")
            (old,) = load_all([args.results[0]])
            if not isinstance(old, BenchRun):
                raise ReportError("%s is not a vkqs bench result" % args.results[0])
            bench_baseline_usable(old)
            return 0
        if args.baseline:
            if len(args.results) != 1 or args.html:
                raise ReportError("--baseline takes one new result file (and --md)")
            new, old = load_all([args.results[0], args.baseline])
            if type(new) is not type(old):
                raise ReportError("--baseline compares two suite results or two bench results")
            if isinstance(new, BenchRun):
                result = bench_baseline(new, old)
                text = bench_baseline_markdown(new, old, result)
            else:
                result = baseline(new, old)
                text = baseline_markdown(new, old, result)
            if args.md:
                write_atomic(args.md, text)
            sys.stdout.write(text)
            return 1 if result[0] else 0
        if not args.html and not args.md:
            raise ReportError("nothing to write: give --html FILE and/or --md FILE")
        runs, benches, mutation = load_runs(args.results)
        page = render_html(runs, benches, mutation) if args.html else None
        md = markdown(runs, benches, mutation) if args.md else None
        if page is not None:
            write_atomic(args.html, page)
        if md is not None:
            write_atomic(args.md, md)
        # an incomplete run is said on every surface, the exit code too
        inc = [r for r in runs if not r.complete]
        for r in inc:
            print("report: %s is incomplete: %s" % (r.path, r.stopped), file=sys.stderr)
        return 1 if inc else 0
    except ReportError as e:
        print("report: error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("report: error: %s: %s" % (e.filename or "output", e.strerror), file=sys.stderr)
        return 2
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        print("report: error: a result file is not of the shape this report reads (%s: %s)"
              % (type(e).__name__, e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    MAIN = True
    sys.exit(main())
