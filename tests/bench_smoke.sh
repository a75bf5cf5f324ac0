#!/usr/bin/env bash
# `vkqs bench --quick` runs on a device and writes a valid JSON
# (docs/bench-schema.md), under the validation layer; no timing is asserted (benchmarks print figures,
# tests do not time them).  Usage: bench_smoke.sh VKQS DEVICE WORKDIR
set -u
vkqs=$1 dev=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
"$vkqs" bench --quick --validation --device "$dev" --json "$work/bench.json" >"$work/bench.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "vkqs bench exited $rc"; tail -20 "$work/bench.out"; exit 1; }
python3 - "$work/bench.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "vkqs-bench" and d["format_version"] == 3, "format"
assert d["complete"] and d["device"]["name"] and d["machine"]["cpus"] > 0
assert d["benchmarks"], "no benchmarks"
passed = 0
for b in d["benchmarks"]:
    assert b["status"] in ("Pass", "NotSupported"), (b["name"], b["status"], b["message"])
    if b["status"] != "Pass":
        continue
    passed += 1
    assert b["metrics"], b["name"] + ": no metric"
    for m in b["metrics"]:
        for k in ("median", "p10", "p90", "min", "max", "mad"):
            assert math.isfinite(m[k]), (b["name"], m["name"], k)
        assert m["min"] <= m["p10"] <= m["p90"] <= m["max"], (b["name"], m["name"])
        assert m["min"] <= m["process_min"] <= m["median"] <= m["process_max"] <= m["max"], (b["name"], m["name"])
        assert m["clock"] in ("device", "host") and m["processes"] == len(m["per_process"]) >= 1
        raw = sum(len(p["raw"]) for p in m["per_process"])
        assert m["samples"] + m["rejected"] == raw and m["samples"] > 0, (b["name"], m["name"])
print("bench --quick on %s: %d benchmarks, %d with figures" % (d["device"]["name"], len(d["benchmarks"]), passed))
PY
