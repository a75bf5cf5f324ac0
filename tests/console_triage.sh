#!/usr/bin/env bash
# The console is built for triage (framework/console.c) and expectation
# files scope themselves (framework/expect.h):
#  - lavapipe with --expectations ci/lavapipe: at most 60 lines, the closing
#    block's counts add up to the case count, the files applied and the
#    driver named; --verbose gives a line per case;
#  - an unexpected failure leads the closing block with every failure and
#    its file:line, never a "no verdict" note in its place;
#  - scope lines: a family file (PREFIX-TAG-KIND.txt) applies by device
#    name, driverID (name or number) or driverInfo; one without a scope line
#    applies only when named; a file named twice is read once; a list that
#    applies to nothing: one line, exit 2, before any case.
# Usage: console_triage.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }

"$vkqs" run --device llvmpipe --expectations "$root/ci/lavapipe" --json lvp.json >lvp.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || bad "lavapipe under its expectations exited $rc"
n=$(wc -l <lvp.out)
[ "$n" -le 60 ] && ok || bad "lavapipe: $n console lines, more than 60"
python3 - lvp.out lvp.json <<'PY' && ok || bad "lavapipe: the closing block does not add up"
import json, re, sys
out = open(sys.argv[1]).read()
total = len(json.load(open(sys.argv[2]))["cases"])
heads = dict((k, int(v)) for k, v in re.findall(r"^== (Unexpected|Order-dependent|Not run|Flakes|Expected failures|Warnings|NotSupported): (\d+)", out, re.M))
m = re.search(r"^(\d+) cases on .*: (\d+) Pass,", out, re.M)
assert m and int(m.group(1)) == total, (m and m.group(1), total)
passed = int(m.group(2))
assert sum(heads.values()) + passed == total, (heads, passed, total)
# each group's counts add up to its heading
for sect in ("Expected failures", "Warnings", "NotSupported"):
    body = out.split("== %s:" % sect)[1].split("\n== ")[0]
    counts = [int(x) for x in re.findall(r"^ +(\d+)  ", body, re.M)]
    assert sum(counts) == heads[sect], (sect, counts, heads[sect])
assert re.search(r"^== Expectations: .*ci/lavapipe-fails\.txt", out, re.M) or \
    re.search(r"^== Expectations: .*ci/lavapipe-mesa-25\.0\.7-fails\.txt", out, re.M)
assert re.search(r"^== Driver: llvmpipe.*VK_DRIVER_ID_MESA_LLVMPIPE", out, re.M)
assert re.search(r"^PASS: 0 unexpected of %d cases" % total, out, re.M)
PY
"$vkqs" run --device llvmpipe --expectations "$root/ci/lavapipe" --filter 'vkqs.results.*' \
	--verbose >v.out 2>&1
cases=$("$vkqs" list --filter 'vkqs.results.*' | wc -l)
[ "$(grep -c ' vkqs\.results\.' v.out)" -ge "$cases" ] && ok || bad "--verbose: not a line per case"

# An unexpected failure: every failure with its file:line, first.
RD_FAULT=statistics_order_reversed "$vkqs" run --filter 'vkqs.stats.bits.order_all_get_64' \
	>u.out 2>&1
[ $? -eq 1 ] && ok || bad "an unexpected failure did not exit 1"
sed -n '/^== Unexpected: 1/,/^== /p' u.out >u.block
grep -q '^Fail .*vkqs.stats.bits.order_all_get_64 (UNEXPECTED)' u.block &&
	grep -q '^    [a-z_]*\.c:[0-9]*: .*input_assembly_vertices.* is 48, above 0' u.block &&
	! grep -q 'no verdict' u.block && ok || { bad "the unexpected block"; cat u.block; }
tail -n 1 u.out | grep -q '^FAIL: 1 unexpected of 1 cases' && ok || bad "closing line: $(tail -n 1 u.out)"

# Scope lines and families, on the reference device (driverID 0x7fff0001).
A=(--filter 'vkqs.results.get.size_32_none_stride_packed' --filter 'vkqs.results.get.size_64_none_stride_packed')
printf '# the base list\n' >x-fails.txt
printf '# devices: refdevice\n^vkqs\\.results\\.get\\.size_32_\n' >x-mine-skips.txt
printf '# devices: H200\n^vkqs\\.results\\.get\\.size_64_\n' >x-h200-skips.txt
printf '^vkqs\\.results\\.get\\.size_64_\n' >x-noscope-skips.txt
"$vkqs" run "${A[@]}" --expectations ./x --json x.json >x.out 2>&1
python3 - x.json <<'PY' && ok || { bad "family by device name"; cat x.out; }
import json, sys
d = json.load(open(sys.argv[1]))
names = [c["name"] for c in d["cases"]]
assert names == ["vkqs.results.get.size_64_none_stride_packed"], names
files = [f["path"] for f in d["expectations_files"]]
assert files == ["./x-fails.txt", "./x-mine-skips.txt"], files
na = d["expectations_not_applied"]
assert "./x-h200-skips.txt (devices: H200)" in na and "x-noscope-skips.txt (no scope line" in na, na
PY
grep -q 'not applied (written for another driver or device): .*x-h200-skips.txt' x.out && ok ||
	bad "the console does not name the file not applied"
# named explicitly: the file without a scope applies; named twice: read once
"$vkqs" run "${A[@]}" --expectations ./x,./x-noscope,./x-mine --json y.json >y.out 2>&1
[ $? -eq 2 ] && grep -q 'no case selected' y.out && ok || { bad "explicit family member"; cat y.out; }
# driverID by number, driverInfo by version
printf '# driver ids: 0x7fff0001\n# driver versions: reference device 0.1\n' >z-fails.txt
"$vkqs" run "${A[@]}" --expectations ./z >z.out 2>&1 && ok || { bad "driverID by number"; cat z.out; }
printf '# driver ids: VK_DRIVER_ID_NVIDIA_PROPRIETARY\n' >w-fails.txt
"$vkqs" run "${A[@]}" --expectations ./w >w.out 2>&1
[ $? -eq 2 ] && [ "$(wc -l <w.out)" -eq 1 ] &&
	grep -q 'no expectations for this device (vkqs refdevice.*w-fails.txt (driver ids: VK_DRIVER_ID_NVIDIA_PROPRIETARY)' w.out &&
	ok || { bad "a list for another driver"; cat w.out; }

echo "console_triage: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
