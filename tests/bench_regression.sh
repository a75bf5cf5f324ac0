#!/usr/bin/env bash
# The bench regression rule (docs/bench-regressions.md) on the refdevice:
# two runs of one build compared with `vkqs report --baseline` flag nothing;
# a run with RD_BENCH_SLOWDOWN=20 (timestamp writes, query begins and ends,
# vkGetQueryPoolResults 20 % slower) is flagged (exit 1) on the metrics
# those commands make up, and on no other; a baseline with too few
# processes to judge at the stated false-alarm rate is refused (exit 2).
# The rule's false-alarm bound holds for processes exchangeable between
# runs; a host-side figure can still move between two runs seconds apart
# on a shared 2-core machine (about 1 attempt in 25 here).  So, as the
# runner does for a failing case, an attempt whose only wrong flags are
# host-side is run once more, and that attempt must be clean; a wrong
# device-side flag (the cost model is exact) fails at once.
# Usage: bench_regression.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
# 4 benchmarks, 16 metrics: the rule needs 7 processes per run for them
sel=(--filter 'vkqs.bench.timestamp.write_cost_graphics_top' --filter '*draw_cost_occlusion'
     --filter '*get_1_queries_64' --filter '*get_4096_queries_64'
     --processes 8 --repeat 10 --min-time 0.02)
fail() { echo "bench_regression: $*"; exit 1; }
bench() { # NAME [ENV...]
	local name=$1; shift
	env "$@" "$vkqs" bench "${sel[@]}" --json "$work/$name.json" >"$work/$name.out" 2>&1 ||
		{ tail -20 "$work/$name.out"; fail "vkqs bench ($name) failed"; }
}

# Checks one comparison's Markdown: exit 0 right, 1 wrong, 3 wrong only in
# host-side metrics.  MUST: metrics that must be flagged; MAY: those that may.
judge() { # REPORT.md MUST MAY
	python3 - "$@" <<'PY'
import re, sys
text, must, may = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
rows = set()
for title in ("## Regressions", "## Improvements"):
    if title in text:
        sec = text.split(title, 1)[1].split("\n## ", 1)[0]
        rows |= set(re.findall(r"^\| `([^`]+)` \| (\S+) \| (\w+) \|", sec, re.M))
flagged = {(b, m) for b, m, _ in rows}
clock = {(b, m): c for b, m, c in rows}
names = lambda s: {tuple(x.split(":")) for x in s.split()}
missing, wrong = names(must) - flagged, flagged - names(must) - names(may)
if missing or wrong:
    print(text)
    print("bench_regression: %s: not flagged %s; flagged wrongly %s"
          % (sys.argv[1], sorted(missing), sorted(wrong)))
    sys.exit(3 if not missing and all(clock[k] == "host" for k in wrong) else 1)
print("%s: %d flagged%s" % (sys.argv[1].rsplit("/", 1)[1], len(flagged), "".join(
    " %s:%s" % (b.rsplit(".", 1)[1], m) for b, m in sorted(flagged))))
PY
}

B=vkqs.bench
# made of slowed commands: device-side by the cost model, host-side in real time
MUST="$B.timestamp.write_cost_graphics_top:write_cost $B.query.draw_cost_occlusion:with_query
      $B.query.draw_cost_occlusion:query_overhead"
# (the read's share of a memcpy, and its time over the copy path's, are
# made of the slowed read too)
MAY=""
for n in 1 4096; do
	for m in latency bandwidth bandwidth_over_memcpy latency_over_copy_path; do
		MAY="$MAY $B.readback.get_${n}_queries_64:$m"
	done
done

attempt() {
	bench run1
	bench run2
	bench slow20 RD_BENCH_SLOWDOWN=20
	"$vkqs" report "$work/run2.json" --baseline "$work/run1.json" >"$work/same.md" 2>&1
	local rc=$?
	[ "$rc" -le 1 ] || { cat "$work/same.md"; fail "two runs of one build: exit $rc"; }
	judge "$work/same.md" "" ""
	local same=$?
	"$vkqs" report "$work/slow20.json" --baseline "$work/run1.json" >"$work/slow.md" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || { cat "$work/slow.md"; fail "RD_BENCH_SLOWDOWN=20: exit $rc, expected 1"; }
	judge "$work/slow.md" "$MUST" "$MAY"
	local slow=$?
	[ "$same" -eq 1 ] || [ "$slow" -eq 1 ] && return 1
	[ "$same" -eq 3 ] || [ "$slow" -eq 3 ] && return 3
	return 0
}

attempt
rc=$?
if [ "$rc" -eq 3 ]; then
	echo "bench_regression: only host-side metrics flagged wrongly; once more"
	attempt
	rc=$?
fi
[ "$rc" -eq 0 ] || fail "the rule flagged wrongly (above)"

"$vkqs" bench --filter 'vkqs.bench.timestamp.write_cost_graphics_top' --processes 1 --repeat 3 \
	--min-time 0 --json "$work/one.json" >"$work/one.out" 2>&1 || fail "vkqs bench --processes 1 failed"
"$vkqs" report "$work/one.json" --baseline "$work/run1.json" >"$work/one.md" 2>"$work/one.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/one.err")" -eq 1 ] && grep -q "needs [0-9]* (vkqs bench --processes" "$work/one.err" ||
	{ cat "$work/one.err"; fail "one process per benchmark: exit $rc, expected 2 and one line"; }
echo "bench_regression: same build 0 flagged; RD_BENCH_SLOWDOWN=20 flagged; too few processes refused"
