#!/usr/bin/env bash
# Host-clock samples visit every CPU of the process's affinity and keep the
# fastest (framework/bench.h, docs/bench-stability.md).  The refdevice's
# RD_BENCH_BUSY_CPU=N models the lent virtual machines, where host code on
# one CPU runs slower for a while: its vkGetQueryPoolResults and
# vkResetQueryPool do their work ten times on CPU N (the lent machines: up
# to 4x; ten, so that this machine's own 1.5x between CPUs cannot pass
# for it or hide it).  Over two CPUs, one
# of them busy, the read's latency and the host reset's time stay at the
# level of a machine with no busy CPU; pinned to the busy CPU alone they
# are slower, which shows the model bites.  Processes of the three kinds
# alternate and each figure is the median over its processes, so that a
# busy CI machine moves all three alike.  Skipped (77) with fewer than two
# CPUs to run on.
# Usage: bench_cpu_spread.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
read -r a b < <(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(*c[:2])')
[ -n "${b:-}" ] || { echo "SKIP: one CPU to run on"; exit 77; }
H=(--filter 'vkqs.bench.readback.get_1_queries_64' --filter 'vkqs.bench.copy.copy_and_reset_4096_queries'
   --repeat 10 --min-time 0.02 --processes 1)
fail=0
bad() { echo "FAILED: $*"; fail=1; }
for i in 1 2 3 4 5; do
	# the busy CPU one the process never runs on: every call still asks
	# which CPU it is on, as in the runs it is compared with
	RD_BENCH_BUSY_CPU=1023 taskset -c "$a,$b" "$vkqs" bench "${H[@]}" --json "none-$i.json" \
		>none.out 2>&1 ||
		bad "no busy CPU, process $i exited $?"
	RD_BENCH_BUSY_CPU=$a taskset -c "$a,$b" "$vkqs" bench "${H[@]}" --json "spread-$i.json" \
		>spread.out 2>&1 || bad "CPU $a busy, over CPUs $a and $b, process $i exited $?"
	RD_BENCH_BUSY_CPU=$a taskset -c "$a" "$vkqs" bench "${H[@]}" --json "pinned-$i.json" \
		>pinned.out 2>&1 || bad "CPU $a busy, pinned to it, process $i exited $?"
done
[ "$fail" -eq 0 ] || exit 1
python3 - <<'PY' || fail=1
import json, statistics
def level(kind, bench, metric):
    return statistics.median(
        m["median"] for i in range(1, 6)
        for b in json.load(open("%s-%d.json" % (kind, i)))["benchmarks"] if b["name"] == bench
        for m in b["metrics"] if m["name"] == metric)
ok = True
# the run's record of how its host samples were taken: what its children did
# (one function gives both, framework/bench.c)
for kind, cpus in (("none", 2), ("spread", 2), ("pinned", 1)):
    opt = json.load(open("%s-1.json" % kind))["options"]
    if opt.get("host_cpus") != cpus or opt.get("host_window_s") != 0.2:
        print("FAILED: %s run records host_cpus %r, host_window_s %r; its children sampled "
              "over %d CPUs for at least 0.2 s" % (kind, opt.get("host_cpus"),
                                                  opt.get("host_window_s"), cpus))
        ok = False
for bench, metric in (("vkqs.bench.readback.get_1_queries_64", "latency"),
                      ("vkqs.bench.copy.copy_and_reset_4096_queries", "host_reset_time")):
    none, spread, pinned = (level(k, bench, metric) for k in ("none", "spread", "pinned"))
    print("%s %s: no busy CPU %.4g ns, one of two busy %.4g ns (x%.2f), pinned to the busy one "
          "%.4g ns (x%.2f)" % (bench, metric, none, spread, spread / none, pinned, pinned / none))
    if spread / none > 2:
        print("FAILED: one busy CPU of two moved %s %s by x%.2f: the samples did not keep "
              "the other CPU's" % (bench, metric, spread / none))
        ok = False
    if pinned / none < 4:
        print("FAILED: pinned to the busy CPU, %s %s is only x%.2f: RD_BENCH_BUSY_CPU "
              "did not bite, so the check above proves nothing" % (bench, metric, pinned / none))
        ok = False
raise SystemExit(0 if ok else 1)
PY
[ "$fail" -eq 0 ] && echo "bench.cpu_spread: passed"
exit "$fail"
