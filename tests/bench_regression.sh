#!/usr/bin/env bash
# The bench regression rule (docs/bench-regressions.md) on the refdevice:
# two runs of one build compared with `vkqs report --baseline` flag nothing;
# a run with RD_BENCH_SLOWDOWN=20 (timestamp writes, query begins and ends,
# vkGetQueryPoolResults 20 % slower) is flagged (exit 1) on the metrics
# those commands make up, and on no other; a baseline with too few
# processes to judge at the stated false-alarm rate is refused (exit 2).
# Usage: bench_regression.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
# 4 benchmarks, 9 metrics: the rule needs 6 processes per run for them
sel=(--filter 'vkqs.bench.timestamp.write_cost_graphics_top' --filter '*draw_cost_occlusion'
     --filter '*get_1_queries_64' --filter '*get_4096_queries_64'
     --processes 8 --repeat 10 --min-time 0.02)
fail() { echo "bench_regression: $*"; exit 1; }
bench() { # NAME [ENV...]
	local name=$1; shift
	env "$@" "$vkqs" bench "${sel[@]}" --json "$work/$name.json" >"$work/$name.out" 2>&1 ||
		{ tail -20 "$work/$name.out"; fail "vkqs bench ($name) failed"; }
}
bench run1
bench run2
bench slow20 RD_BENCH_SLOWDOWN=20

"$vkqs" report "$work/run2.json" --baseline "$work/run1.json" >"$work/same.md" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$work/same.md"; fail "two runs of one build: exit $rc, expected 0"; }

"$vkqs" report "$work/slow20.json" --baseline "$work/run1.json" >"$work/slow.md" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$work/slow.md"; fail "RD_BENCH_SLOWDOWN=20: exit $rc, expected 1"; }
python3 - "$work/slow.md" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1]).read()
sec = text.split("## Regressions", 1)[1].split("\n## ", 1)[0]
flagged = set(re.findall(r"^\| `([^`]+)` \| (\S+) \|", sec, re.M))
# made of slowed commands: device-side by the cost model, host-side in real time
must = {("vkqs.bench.timestamp.write_cost_graphics_top", "write_cost"),
        ("vkqs.bench.query.draw_cost_occlusion", "with_query"),
        ("vkqs.bench.query.draw_cost_occlusion", "query_overhead")}
may = must | {("vkqs.bench.readback.get_%s_queries_64" % n, m)
              for n in ("1", "4096") for m in ("latency", "bandwidth")}
missing, wrong = must - flagged, flagged - may
if missing or wrong:
    print(text)
    sys.exit("bench_regression: slowed metrics not flagged %s; flagged but not slowed %s"
             % (sorted(missing), sorted(wrong)))
print("RD_BENCH_SLOWDOWN=20: %d metrics flagged: %s" % (len(flagged), ", ".join(
    "%s:%s" % (b.rsplit(".", 1)[1], m) for b, m in sorted(flagged))))
PY

"$vkqs" bench --filter 'vkqs.bench.timestamp.write_cost_graphics_top' --processes 1 --repeat 3 \
	--min-time 0 --json "$work/one.json" >"$work/one.out" 2>&1 || fail "vkqs bench --processes 1 failed"
"$vkqs" report "$work/one.json" --baseline "$work/run1.json" >"$work/one.md" 2>"$work/one.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$work/one.err")" -eq 1 ] && grep -q "needs [0-9]* (vkqs bench --processes" "$work/one.err" ||
	{ cat "$work/one.err"; fail "one process per benchmark: exit $rc, expected 2 and one line"; }
echo "bench_regression: same build 0 flagged; RD_BENCH_SLOWDOWN=20 flagged; too few processes refused"
