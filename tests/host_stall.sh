#!/usr/bin/env bash
# No verdict rests on one host-timed view of a submission.  The host sees
# finished work late when its thread is not scheduled (a loaded CI machine,
# a shared VM), never early: a case that warns or fails because one
# submission looked slow to the host reports the machine, not the driver
# (the ci.farm flake of timestamp.duration.period_vs_host_graphics).
# RD_HOST_STALL_MS=500 makes every other fence of a queue signal 500 ms
# late (refdevice/README.md).  The areas that time the host around work run
# with and without it: every case must end with the same status.
# Usage: host_stall.sh VKQS EXPECTATIONS
set -u
vkqs=$1 exp=$2
cd "$(mktemp -d)" || exit 1
F=(--filter 'vkqs.timestamp.*' --filter 'vkqs.idle.*' --filter 'vkqs.elapsed.*'
   --filter 'vkqs.concurrent.*' --filter 'vkqs.perf.lock.*')
fail=0
"$vkqs" run --device refdevice --expectations "$exp" "${F[@]}" --jobs 2 --json plain.json \
	>plain.txt 2>&1 || { echo "FAILED: the run without a stall:"; tail -20 plain.txt; fail=1; }
RD_HOST_STALL_MS=500 "$vkqs" run --device refdevice --expectations "$exp" "${F[@]}" --jobs 2 \
	--timeout 300 --json stalled.json >stalled.txt 2>&1 ||
	{ echo "FAILED: the run with RD_HOST_STALL_MS=500:"; tail -20 stalled.txt; fail=1; }
python3 - <<'PY' || fail=1
import json
def statuses(f):
    return {c["name"]: (c["status"], c.get("message", "")) for c in json.load(open(f))["cases"]}
plain, stalled = statuses("plain.json"), statuses("stalled.json")
bad = [n for n in plain if plain[n][0] != stalled.get(n, ("missing", ""))[0]]
for n in bad:
    print("FAILED: %s is %s, but %s when the host sees every other submission 500 ms late: %s"
          % (n, plain[n][0], stalled.get(n, ("missing", ""))[0],
             stalled.get(n, ("", ""))[1][:300]))
if len(plain) < 200:
    print("FAILED: only %d cases ran" % len(plain)); bad.append(None)
print("host_stall: %d cases, %d differ" % (len(plain), len(bad)))
raise SystemExit(1 if bad else 0)
PY
[ "$fail" -eq 0 ] && echo "refdevice.host_stall: passed"
exit "$fail"
