#!/usr/bin/env bash
# vkqs compare: one command runs the suite on every device the loader sees
# (the reference device, lavapipe and, added here, SwiftShader), each with
# the ci/ expectations that scope themselves to it, and writes one page;
# a directory that is not empty and a missing --outdir are refused in one
# line before any run; SIGTERM stops it with no case process left.
# Usage: compare.sh VKQS WORKDIR SWIFTSHADER_ICD
set -u
vkqs=$1 work=$2 icd=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
export VK_ADD_DRIVER_FILES=$icd

"$vkqs" compare --outdir out --filter 'vkqs.results.get.*' >c.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "compare exited $rc"; cat c.out; }
python3 - out <<'PY' && ok || bad "the page and the runs"
import glob, json, os, sys
d = sys.argv[1]
runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(d, "*.json")))]
names = sorted(r["device"]["name"] for r in runs)
assert len(runs) == 3 and any("SwiftShader" in n for n in names) and \
    any("llvmpipe" in n for n in names) and any("refdevice" in n for n in names), names
for r in runs:
    exp = r.get("expectations") or ""
    want = {"SwiftShader": "ci/swiftshader", "llvmpipe": "ci/lavapipe", "refdevice": "ci/refdevice"}
    key = next(k for k in want if k in r["device"]["name"])
    assert exp.endswith(want[key]), (r["device"]["name"], exp)
page = open(os.path.join(d, "index.html")).read()
assert page.count('data-attention="') == 3, "three runs in the first section"
assert os.path.getsize(os.path.join(d, "summary.md")) > 0
PY
grep -q '^PASS: no run has an unexpected result' c.out && ok || bad "closing line: $(tail -1 c.out)"

# refusals: one line, exit 2, nothing written
"$vkqs" compare --outdir out >r1.out 2>&1
[ $? -eq 2 ] && [ "$(wc -l <r1.out)" -eq 1 ] && grep -q 'not empty' r1.out && ok || { bad "non-empty outdir"; cat r1.out; }
"$vkqs" compare >r2.out 2>&1
[ $? -eq 2 ] && [ "$(wc -l <r2.out)" -eq 1 ] && grep -q -- '--outdir DIR is needed' r2.out && ok || bad "no --outdir"
"$vkqs" compare --outdir new --jobs 0 >r3.out 2>&1
[ $? -eq 2 ] && [ ! -e new ] && ok || bad "--jobs 0 was not refused before the directory was made"

# SIGTERM while a device runs: exit 130, no process of it left
"$vkqs" compare --outdir "$work/stopped" --filter 'vkqs.reset.*' >s.out 2>&1 &
pid=$!
for _ in $(seq 100); do ls stopped/*.txt >/dev/null 2>&1 && break; sleep 0.1; done
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && ok || { bad "SIGTERM: exit $rc"; cat s.out; }
sleep 0.5
pgrep -f -- "$work/stopped" >/dev/null && bad "a run outlived the stopped compare" || ok

echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
