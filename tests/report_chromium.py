#!/usr/bin/env python3
"""The committed results rendered into the comparison page and opened in
headless Chromium: from the DOM Chromium builds, the first section (needs
attention) names the unexpected cases of each run (a copy of a committed
run with one case made unexpected is added), every run and every area
appear, rows that differ only in NotSupported are folded until asked for,
and the page's filter (set through the URL, as a click would set it) shows
exactly the differing cases of that area and status.
Usage: report_chromium.py OUTDIR"""
import datetime
import html.parser
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import report  # noqa: E402

RUNS = ["refdevice.json", "refdevice-tiler.json", "lavapipe-mesa-22.3.6.json",
        "nvidia-h100-580.159.04.json", "nvidia-h200-580.159.04.json",
        "bench-refdevice.json", "bench-lavapipe-mesa-22.3.6.json",
        "bench-nvidia-h100-580.159.04-run1.json", "bench-nvidia-h200-580.159.04-run1.json"]


class Dom(html.parser.HTMLParser):
    """Run cards, matrix rows and difference rows of a dumped DOM."""

    def __init__(self):
        super().__init__()
        self.runs, self.matrix, self.diffs, self.charts = [], [], [], []
        self.attention = []  # [(run index, [case names])] in page order
        self.regressed = []
        self.first_h2 = None
        self.in_h2 = False
        self.table = None
        self.in_run_b = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2" and self.first_h2 is None:
            self.in_h2 = True
            self.first_h2 = ""
        elif tag == "div" and "data-attention" in a:
            self.attention.append((int(a["data-attention"]), []))
        elif tag == "li" and "data-case" in a and self.attention:
            self.attention[-1][1].append(a["data-case"])
        elif tag == "li" and "data-regressed" in a:
            self.regressed.append(a["data-regressed"])
        if tag == "table":
            self.table = a.get("id")
        elif tag == "tr" and "data-area" in a:
            row = {"area": a["data-area"], "cats": a.get("data-cats", "").split(),
                   "hidden": "hidden" in a, "nsonly": "data-nsonly" in a}
            if self.table == "matrix":
                self.matrix.append(row)
            elif self.table == "diffs":
                self.diffs.append(row)
        elif tag == "div" and "data-metric" in a:
            self.charts.append(a["data-metric"])
        elif tag == "div" and "data-run" in a:
            self.runs.append("")
        elif tag == "b" and self.runs and self.runs[-1] == "":
            self.in_run_b = True

    def handle_data(self, data):
        if self.in_h2:
            self.first_h2 += data
        if self.in_run_b:
            self.runs[-1] += data

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        if tag == "b":
            self.in_run_b = False


def dump(page, fragment):
    out = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                          "--dump-dom", "file://%s#%s" % (page, fragment)],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0 or "<table" not in out.stdout:
        sys.exit("chromium --dump-dom failed: %s" % out.stderr.strip()[-500:])
    d = Dom()
    d.feed(out.stdout)
    return d


def main():
    if not shutil.which("chromium"):
        sys.exit("chromium is not installed (ci/setup.sh installs Debian's chromium)")
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    page = os.path.abspath(os.path.join(outdir, "index.html"))
    paths = [os.path.join(ROOT, "results", r) for r in RUNS]
    # a run with something unexpected: a committed run, one case made a new
    # Fail (the page must name it first)
    with open(os.path.join(ROOT, "results", "lavapipe-mesa-22.3.6.json")) as f:
        d = json.load(f)
    victim = next(c for c in d["cases"] if c["status"] == "Pass")
    victim.update(status="Fail", outcome="unexpected", message="x.c:1: made unexpected",
                  failures=["x.c:1: made unexpected"], notes=[])
    # a day after the committed run (a fixed date stops being "later" once
    # the committed run is refreshed): a regression of it
    started = datetime.datetime.strptime(d["started_at"], "%Y-%m-%dT%H:%M:%SZ")
    d["started_at"] = (started + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    d["summary"]["unexpected"] = d["summary"].get("unexpected", 0) + 1
    new = os.path.join(os.path.abspath(outdir), "lavapipe-with-unexpected.json")
    with open(new, "w") as f:
        json.dump(d, f)
    paths.insert(3, new)
    start = time.monotonic()
    rc = report.main(paths + ["--html", page, "--md", os.path.join(outdir, "summary.md")])
    took = time.monotonic() - start
    if rc != 0:
        sys.exit("report.py exited %d" % rc)
    print("rendered %d runs in %.2f s" % (len(paths), took))
    runs, benches, _ = report.load_runs(paths)
    fails = []

    d = dump(page, "")
    labels = [r.label for r in runs]
    if d.runs != labels:
        fails.append("run cards %r, expected %r" % (d.runs, labels))
    # every metric of every bench file has its chart, and each readback mode its line chart
    want = ["%s:%s" % (n, m) for n, m, _, _, _ in report.bench_metrics(benches)]
    want += ["readback-lines:%s" % mode for mode in report.readback_lines(benches)]
    if sorted(d.charts) != sorted(want) or not want:
        fails.append("bench charts: %d in the page, %d expected (missing %s)" % (
            len(d.charts), len(want), sorted(set(want) - set(d.charts))[:3]))
    else:
        print("%d bench charts of %d bench runs" % (len(d.charts), len(benches)))
    areas = report.areas(runs)
    if [r["area"] for r in d.matrix] != areas:
        fails.append("matrix areas %r, expected %r" % ([r["area"] for r in d.matrix], areas))
    # the first section: what needs attention, each run's unexpected cases
    if (d.first_h2 or "").strip() != "Needs attention":
        fails.append("the first section is %r, not 'Needs attention'" % d.first_h2)
    want_att = [(i, [n for n, c in r.cases.items()
                     if report.results_model.case_class(c) == "failed"
                     or report.category(c["status"]) == "harness"][:50])
                for i, r in enumerate(runs)]
    if d.attention != want_att or victim["name"] not in d.attention[3][1]:
        fails.append("needs attention lists %r, expected %r" % (
            [(i, n[:3]) for i, n in d.attention], [(i, n[:3]) for i, n in want_att]))
    elif d.regressed != [victim["name"]]:
        fails.append("regressions %r, expected [%r]" % (d.regressed[:3], victim["name"]))
    else:
        print("needs attention names %s first, as a regression too" % victim["name"])
    diffs = report.differences(runs)
    nsonly = [report.differs_only_in_notsupported(per) for _, _, per in diffs]
    shown = [r for r in d.diffs if not r["hidden"]]
    if len(d.diffs) != len(diffs) or len(shown) != nsonly.count(False) or \
            any(r["nsonly"] for r in shown) or not any(nsonly):
        fails.append("unfiltered: %d rows (%d shown), expected %d of %d (NotSupported-only "
                     "rows folded)" % (len(d.diffs), len(shown), nsonly.count(False), len(diffs)))
    d = dump(page, "ns=1")
    if any(r["hidden"] for r in d.diffs):
        fails.append("ns=1: %d rows still hidden" % sum(r["hidden"] for r in d.diffs))

    for area, status in (("occlusion", "fail"), ("timestamp", "notsup"), ("", "warn"),
                         ("", "unexp"), ("multiview", "xfail")):
        d = dump(page, "area=%s&status=%s&ns=1" % (area, status))
        shown = [r for r in d.diffs if not r["hidden"]]
        want = [n for n, a, per in diffs if (not area or a == area) and
                status in [report.category(c["status"] if c else None) for c in per] +
                [report.cell_category(c) for c in per]]
        bad = [r for r in shown if (area and r["area"] != area) or status not in r["cats"]]
        if len(shown) != len(want) or bad or not want:
            fails.append("filter area=%r status=%r: %d rows shown, %d expected, %d wrong"
                         % (area, status, len(shown), len(want), len(bad)))
        else:
            print("filter area=%r status=%r: %d of %d rows" % (area, status, len(shown),
                                                               len(d.diffs)))
    for f in fails:
        print("FAILED: " + f)
    print("%d runs, %d areas, %d differing cases; %s" % (
        len(labels), len(areas), len(diffs), "failed" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
