#!/usr/bin/env python3
"""The table of the suite runs kept in results/, made from their JSON.

    tools/results_table.py [--check] [RESULTS_DIR] [OUT.md]

Writes OUT.md (default docs/results.md): one row per vkqs-results file of
RESULTS_DIR (default results/), newest first, with what the file itself
records: the date, device, driver, validation layer, expectations, vkqs
build (its commit where the file records one), the counts of the summary, and whether the run completed or lost the
device.  Nothing in the table is typed by hand, so it cannot drift from the
files; what a run means is in the commit that added it and in the driver's
ci/*-fails.txt.  --check: exit 1 when OUT.md differs from what it would
write (ctest docs.results_table).  Bad input: one line, exit 2.
"""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import outputs  # noqa: E402
import results_model  # noqa: E402

HEAD = """# Results of real runs

Made by `tools/results_table.py` from the JSON files in `results/` (ctest
`docs.results_table` fails when this page is stale).  Newest first.  Runs
started before 2026-11-27 predate the verdicts of Vulkan 1.4.360
(`docs/verdicts.md`); each expected failure is explained in the driver's
`ci/<driver>-fails.txt`, and `tools/repro/README.md` has the reproducers of
the driver bugs that took a GPU down.  Text results of runs that wrote no
JSON (fresh Debian roots, layer versions, the NVIDIA multiview loss) are the
`results/*.txt` files.  "vkqs build" is the commit the run's vkqs was built
from (its `revision`, recorded since 2026-11-28), or else the first digits of
the SHA-256 of its binary (`build`).

| file | started | device | driver | layer | expectations | vkqs build | cases | Pass | NotSupported | warnings | expected | flakes | unexpected | not run | end |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
"""


def row(path, d):
    dev = d.get("device") or {}
    s = results_model.counts(d.get("cases") or [])
    v = d.get("validation")
    layer = v.get("layer", "?") if isinstance(v, dict) else ("on" if v else "none")
    exp = d.get("expectations") or "none"
    if d.get("device_lost"):
        end = "device lost at `%s`" % d["device_lost"].get("at", "?")
    elif not results_model.complete(d):
        end = "incomplete: %s" % results_model.stopped(d)
    else:
        end = "complete"
    knobs = d.get("refdevice") or {}
    driver = dev.get("driver_info") or dev.get("driver_name", "?")
    if knobs:
        driver += " (" + " ".join("%s=%s" % kv for kv in sorted(knobs.items())) + ")"
    return "| `%s` | %s | %s | %s | %s | `%s` | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        os.path.basename(path), (d.get("started_at") or "?")[:10], dev.get("name", "?"),
        driver, layer, exp, d.get("revision") or (d.get("build") or "?").replace("sha256:", "")[:12],
        s["total"], s["pass"], s["not_supported"], s["warnings"], s["expected_fails"],
        s["flakes"], s["failed"], s["not_run"], end)


def table(results_dir):
    rows = []
    for p in sorted(glob.glob(os.path.join(results_dir, "*.json"))):
        try:
            with open(p, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError("%s: %s" % (p, e))
        except RecursionError:
            raise ValueError("%s: JSON nested too deeply" % p)
        if not isinstance(d, dict) or d.get("format") != "vkqs-results":
            continue
        bad = [k for k, t in (("device", dict), ("cases", list), ("summary", dict))
               if k in d and not isinstance(d[k], t)]
        bad += ["cases"] if any(not isinstance(c, dict) for c in d.get("cases") or []) else []
        if bad:
            raise ValueError("%s: not a vkqs result of this shape (%s)" % (p, ", ".join(bad)))
        rows.append((d.get("started_at") or "", row(p, d)))
    rows.sort(key=lambda r: r[0], reverse=True)
    return HEAD + "\n".join(r for _, r in rows) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) > 2:
        print("usage: results_table.py [--check] [RESULTS_DIR] [OUT.md]", file=sys.stderr)
        return 2
    results_dir = args[0] if args else os.path.join(ROOT, "results")
    out = args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "results.md")
    try:
        if not os.path.isdir(results_dir):
            raise ValueError("%s: no such folder" % results_dir)
        return outputs.generated("results_table", out, table(results_dir), check)
    except (ValueError, outputs.OutputError, OSError) as e:
        print("results_table: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
