#!/usr/bin/env bash
# docs/ci.md end to end: runs the script lines of its GitLab CI jobs (the
# same `ci/farm.sh shard` / `ci/farm.sh merge`) with CI_NODE_TOTAL=4 on the
# reference device, then checks the merged run equals an unsharded run case
# for case, a baseline comparison with itself passes, and merge refuses bad
# shard sets with one line and exit 2.
# Usage: ci_farm.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
# The lines the jobs run, taken from the doc itself.
mapfile -t lines < <(sed -n '/^```yaml/,/^```/p' "$root/docs/ci.md" | sed -n 's/^    - //p')
printf '%s\n' "${lines[@]}" | grep -qx 'ci/farm.sh shard' || fail "docs/ci.md runs no 'ci/farm.sh shard'"
printf '%s\n' "${lines[@]}" | grep -qx 'ci/farm.sh merge' || fail "docs/ci.md runs no 'ci/farm.sh merge'"
export VKQS_OUT=$work/farm VKQS_DEVICE=refdevice VKQS_EXPECTATIONS=$root/ci/refdevice VKQS_VALIDATION=1
# The farm script passes no filter: the four shards run the whole suite.
for i in 1 2 3 4; do
	for l in "${lines[@]}"; do
		[ "$l" = "ci/farm.sh shard" ] || continue
		(cd "$root" && CI_NODE_INDEX=$i CI_NODE_TOTAL=4 bash -c "$l") >"$work/shard-$i.log" 2>&1 ||
			{ tail -5 "$work/shard-$i.log"; fail "shard $i"; }
	done
done
"$vkqs" run --device refdevice --expectations "$VKQS_EXPECTATIONS" --validation \
	--json "$work/whole.json" >"$work/whole.log" 2>&1 || fail "the unsharded run"
export VKQS_BASELINE=$work/whole.json
for l in "${lines[@]}"; do
	[ "$l" = "ci/farm.sh merge" ] || continue
	(cd "$root" && bash -c "$l") >"$work/merge.log" 2>&1 || { cat "$work/merge.log"; fail "merge"; }
done
python3 - "$work/farm/merged.json" "$work/whole.json" <<'PY' || fail "merged differs from the unsharded run"
import json, sys
m, w = (json.load(open(p)) for p in sys.argv[1:])
a = [(c["name"], c["status"], c["outcome"]) for c in m["cases"]]
b = [(c["name"], c["status"], c["outcome"]) for c in w["cases"]]
if a != b:
    diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
    sys.exit("merged %d cases, unsharded %d; first differences %s" % (len(a), len(b), diff))
for k in ("total", "pass", "not_supported", "unexpected", "expected_fails"):
    if m["summary"][k] != w["summary"][k]:
        sys.exit("summary %s: merged %s, unsharded %s" % (k, m["summary"][k], w["summary"][k]))
if m["shards"] != 4:
    sys.exit("shards %r" % m["shards"])
print("merged = unsharded: %d cases" % len(a))
PY
for f in report.html report.md regressions.md; do
	[ -s "$work/farm/$f" ] || fail "no $f"
done
# Refusals: one line, exit 2, nothing written.
refuse() { # what, expected words, shards...
	local what=$1 want=$2; shift 2
	rm -f "$work/bad.json"
	python3 "$root/tools/merge.py" "$work/bad.json" "$@" >"$work/refuse.out" 2>&1
	local rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc"
	[ "$(wc -l <"$work/refuse.out")" -eq 1 ] || fail "$what: not one line: $(cat "$work/refuse.out")"
	grep -q -- "$want" "$work/refuse.out" || fail "$what: $(cat "$work/refuse.out")"
	[ ! -e "$work/bad.json" ] || fail "$what: wrote a file"
}
s=$work/farm
refuse "a missing shard" "shard 3 of 4 missing" "$s/shard-1.json" "$s/shard-2.json" "$s/shard-4.json"
refuse "a shard twice" "given twice" "$s/shard-1.json" "$s/shard-1.json" "$s/shard-2.json" "$s/shard-3.json" "$s/shard-4.json"
refuse "not a shard" "not a shard" "$work/whole.json"
python3 - "$s/shard-2.json" "$work/other-options.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["options"] += " --filter x"; json.dump(d, open(sys.argv[2], "w"))
PY
refuse "other options" "options" "$s/shard-1.json" "$work/other-options.json" "$s/shard-3.json" "$s/shard-4.json"
python3 - "$s/shard-2.json" "$work/other-build.json" "$work/incomplete.json" "$work/other-device.json" "$work/overlap.json" "$s/shard-3.json" <<'PY'
import json, sys
src = json.load(open(sys.argv[1]))
d = dict(src); d["build"] = "sha256:0"; json.dump(d, open(sys.argv[2], "w"))
d = dict(src); d["complete"] = False; json.dump(d, open(sys.argv[3], "w"))
d = json.loads(json.dumps(src)); d["device"]["name"] = "another GPU"; json.dump(d, open(sys.argv[4], "w"))
d = json.loads(json.dumps(src)); d["cases"][0] = json.load(open(sys.argv[6]))["cases"][0]; json.dump(d, open(sys.argv[5], "w"))
PY
refuse "another build" "another build" "$s/shard-1.json" "$work/other-build.json" "$s/shard-3.json" "$s/shard-4.json"
refuse "an incomplete shard" "incomplete" "$s/shard-1.json" "$work/incomplete.json" "$s/shard-3.json" "$s/shard-4.json"
refuse "another device" "another device" "$s/shard-1.json" "$work/other-device.json" "$s/shard-3.json" "$s/shard-4.json"
refuse "a case in two shards" "is also in" "$s/shard-1.json" "$work/overlap.json" "$s/shard-3.json" "$s/shard-4.json"
# The expectations files and their hashes are in every result.
python3 - "$s/merged.json" "$root/ci/refdevice-fails.txt" <<'PY' || fail "expectations_files"
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
want = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
got = {f["path"].rsplit("/", 1)[-1]: f["sha256"] for f in d["expectations_files"]}
if got.get("refdevice-fails.txt") != want:
    sys.exit("refdevice-fails.txt: %r, want %s" % (got, want))
PY
echo "ci.farm: 4 shards merged, equal to the unsharded run; 8 refusals"
