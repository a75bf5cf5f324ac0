#!/usr/bin/env bash
# The runner against its self-test cases: a crash and a hang inside the
# driver leave a complete, consistent report of every other case and exit 1;
# a flake is recognised; expectations make the run pass; an unexpected pass
# fails it; sharding, --jobs and --caselist select what they say.
# Usage: runner_selftest.sh VKQS CHECK_REPORTS WORKDIR
set -u
vkqs=$1
check=$2
work=$3
rm -rf "$work"; mkdir -p "$work"
cd "$work" || exit 1
export VKQS_SELFTEST=1 VKQS_SELFTEST_FLAKE_FILE=$work/flake-marker
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }

run() { # run NAME ARGS...: writes NAME.{json,xml,csv,out}, returns vkqs's code
	local name=$1; shift
	"$vkqs" run --device llvmpipe --timeout "${TIMEOUT:-5}" --json "$name.json" \
		--junit "$name.xml" --csv "$name.csv" "$@" >"$name.out" 2>&1
}

# --timeout 10: the fence case gives up after 5 s, leaving 5 s for the
# process and the validated device to start on a loaded CI machine.
TIMEOUT=10 run all --filter 'vkqs.selftest.*' --validation --jobs 2
rc=$?
[ "$rc" -eq 1 ] && ok || bad "crash+hang run exited $rc, expected 1"
python3 "$check" --json all.json --junit all.xml --csv all.csv \
	--expect vkqs.selftest.runner.pass=Pass \
	--expect vkqs.selftest.runner.fail=Fail \
	--expect vkqs.selftest.runner.not_supported=NotSupported \
	--expect vkqs.selftest.runner.flaky=Flake \
	--expect vkqs.selftest.driver.crash_in_queue_submit=Crash \
	--expect vkqs.selftest.driver.hang_in_wait_for_fences=Timeout \
	--expect vkqs.selftest.driver.validation_error=Fail \
	--expect vkqs.selftest.driver.pass_after_crash=Pass \
	--expect vkqs.selftest.driver.fence_never_signals=Fail && ok || bad "reports of the crash+hang run"
grep -q 'signal 11' all.out && ok || bad "the crash names its signal"
# The crashed case's log holds where: the faulting address and a backtrace
# of shared objects (here inside the driver or the layer).
grep -q 'got SIGSEGV at address 0x[0-9a-f]*; backtrace:\\n[^"]*\.so' all.json && ok ||
	bad "the crash's log has no backtrace into a shared object"
grep -q 'VUID-VkQueryPoolCreateInfo-queryCount-02763' all.json && ok || bad "the validation error names its VUID"
# --timeout 10: a case gives up on its fence after 5 s, before the kill.
grep -q 'fence_never_signals.*fence not signaled after 5.0 s' all.out && ok ||
	bad "the fence wait does not follow --timeout"
# The closing line is the verdict, true to the exit code.
tail -n 1 all.out | grep -q '^FAIL: 5 unexpected of 22 cases' && ok || bad "closing line: $(tail -n 1 all.out)"

# Everything listed as expected: exit 0.
cat >exp-fails.txt <<'X'
# self-test baseline
vkqs.selftest.runner.fail,Fail
vkqs.selftest.driver.crash_in_queue_submit,Crash
vkqs.selftest.driver.hang_in_wait_for_fences,Timeout
vkqs.selftest.driver.validation_error,Fail
vkqs.selftest.driver.fence_never_signals,Fail
X
printf '# none\n' >exp-flakes.txt
rm -f flake-marker
run expected --filter 'vkqs.selftest.*' --validation --expectations ./exp
rc=$?
[ "$rc" -eq 0 ] && ok || bad "run with expectations exited $rc, expected 0"
python3 "$check" --json expected.json --junit expected.xml --csv expected.csv >/dev/null && ok || bad "reports of the expected run"

# An expected failure that passes is reported and fails the run.
printf 'vkqs.selftest.runner.pass,Fail\n' >tight-fails.txt
run tight --filter 'vkqs.selftest.runner.pass' --expectations ./tight
rc=$?
[ "$rc" -eq 1 ] && grep -q 'UNEXPECTED PASS' tight.out && ok || bad "unexpected pass: rc $rc"

# Skips remove cases; flakes tolerate failures.
printf 'driver\\.\nrefdevice\\.\n' >skip-skips.txt
printf 'runner\\.fail$\n' >skip-flakes.txt
run skip --filter 'vkqs.selftest.*' --expectations ./skip
rc=$?
[ "$rc" -eq 0 ] && ok || bad "skips+flakes run exited $rc"
[ "$(wc -l <skip.csv)" -eq 6 ] && ok || bad "skips left $(wc -l <skip.csv) cases, expected 6"

# Sharding is interleaved and the shards partition the list.
"$vkqs" list --filter 'vkqs.occlusion.*' >list.txt
n=$(wc -l <list.txt)
run s1 --filter 'vkqs.occlusion.*' --shard 1/3 --no-fork
run s2 --filter 'vkqs.occlusion.*' --shard 2/3
run s3 --filter 'vkqs.occlusion.*' --shard 3/3 --jobs 1
cut -d, -f1 s1.csv s2.csv s3.csv | sort >shards.txt
sort list.txt | cmp -s - shards.txt && ok || bad "shards do not partition the $n cases"
[ "$(head -n 1 s2.csv | cut -d, -f1)" = "$(sed -n 2p list.txt)" ] && ok || bad "shard 2/3 does not start at the 2nd case"

# --caselist runs exactly the listed cases.
sed -n '1p;3p' list.txt >cl.txt
run cl --caselist cl.txt
cut -d, -f1 cl.csv | cmp -s - cl.txt && ok || bad "caselist"

# A device that stays lost (refdevice RD_WEDGE_FILE: the 4th submission on
# the machine and every later one fail): the health check after the case
# that lost it fails, the run stops there, every case not run says why, the
# reports are complete and agree, exit 1, and it all ends quickly.
# --no-fork makes the same check on a fresh device in its own process.
for jobs in 1 3 no-fork; do
	rm -f gpu
	start=$(date +%s)
	mode=(--jobs $jobs --batch 2)
	[ "$jobs" = no-fork ] && mode=(--no-fork)
	RD_WEDGE_FILE=$work/gpu RD_WEDGE_AFTER=3 \
		"$vkqs" run --device refdevice --timeout 5 "${mode[@]}" \
		--filter 'vkqs.selftest.driver.submit_*' --filter 'vkqs.selftest.driver.fence_never_signals' \
		--json wedge.json --junit wedge.xml --csv wedge.csv >wedge.out 2>&1
	rc=$? took=$(($(date +%s) - start))
	[ "$rc" -eq 1 ] && ok || bad "wedged device, --jobs $jobs: exit $rc, expected 1"
	[ "$took" -le 10 ] && ok || bad "wedged device, --jobs $jobs: took $took s, more than twice --timeout"
	python3 "$check" --json wedge.json --junit wedge.xml --csv wedge.csv >/dev/null && ok ||
		bad "wedged device, --jobs $jobs: reports disagree"
	at=$(sed -n 's/^DEVICE LOST at \([^:]*\):.*/\1/p' wedge.out)
	[ -n "$at" ] && python3 -c 'import json, sys
sys.exit(json.load(open("wedge.json"))["device_lost"]["at"] != sys.argv[1])' "$at" && ok ||
		bad "wedged device, --jobs $jobs: the summary and JSON do not name the case ($at)"
	nr=$(grep -c ",Missing," wedge.csv)
	# the console counts them under one reason
	[ "$nr" -ge 1 ] && grep -q "^ *$nr  not run: the device was lost at $at" wedge.out && ok ||
		bad "wedged device, --jobs $jobs: $nr cases not run, not all saying where the device was lost"
	grep -q 'rerunning' wedge.out && bad "wedged device, --jobs $jobs: reran failures on a lost device" || ok
done

# --no-fork after a case that lost the device on purpose (lost.*): the next
# case gets a fresh device, as in the forked runner, not the lost one
# (before, idle.gap.drift_100ms failed on VK_ERROR_DEVICE_LOST).
"$vkqs" run --no-fork --filter 'vkqs.lost.wait.finite_wait_for_fences' \
	--filter 'vkqs.idle.gap.drift_100ms' >lostnf.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '0 unexpected of 2 cases' lostnf.out && ok ||
	bad "--no-fork after an induced device loss: exit $rc"
# the lost device's instance was abandoned, not kept in the live list
# (framework/device.c vkqs_vk_abandon): the run ends with none alive
grep -q 'instances alive' lostnf.out && bad "--no-fork: $(grep 'instances alive' lostnf.out)" || ok

# --no-fork --validation: a case that makes and destroys a second instance
# (perf.lock.second_device) must leave the run's instance its own function
# pointers (framework/device.c); before, the run crashed at its end.
"$vkqs" run --validation --no-fork --filter 'vkqs.perf.lock.second_device' \
	--filter 'vkqs.results.get.size_32_none_stride_packed' >second.out 2>&1
rc=$?
[ "$rc" -lt 2 ] && grep -q '0 unexpected of 2 cases' second.out && ok ||
	bad "--no-fork --validation after a second instance: exit $rc"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
