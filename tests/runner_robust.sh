#!/usr/bin/env bash
# The runner under the ways a CI loses a run (issue 39), one class per call:
#   killed   SIGKILL while a case hangs in the driver: no process of the run
#            lives on; the JSON and CSV are valid, incomplete; SIGHUP ends
#            the run with exit 130 and the reports of what ran; `--resume`
#            completes a run killed half way into one result equal to an
#            uninterrupted run, and refuses a result of other options.
#   config   --jobs above the open-file limit, --device '' and a misspelt
#            refdevice knob (name or value) are refused before any case, in
#            one line, exit 2; the JSON records the refdevice knobs.
#   order    a failure that passes alone and fails again after the cases it
#            followed in its process is order-dependent (unexpected), not a
#            flake.
#   pinned   an expected failure pinned to a message pattern ("# pin:")
#            hides only that failure.
# Usage: runner_robust.sh VKQS WORKDIR killed|config|order|pinned
set -u
vkqs=$1 work=$2 class=$3 pass=0 fail=0
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }

# Processes whose command line names this work folder (a case process is a
# fork of the runner and keeps its command line).
alive() { pgrep -f -- "$work/$1" >/dev/null; }

json_check() { # json_check FILE PYTHON-EXPRESSION-ON-d
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = [c["status"] for c in d["cases"]]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

one_line_exit2() { # one_line_exit2 WHAT PATTERN CMD...
	local what=$1 pat=$2; shift 2
	"$@" >out.txt 2>err.txt </dev/null
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$pat" err.txt && [ "$(grep -c 'vkqs: error' err.txt)" -eq 1 ] &&
		! grep -q '^vkqs: [0-9]* cases' out.txt; then
		ok
	else
		bad "$what: rc=$rc"; cat out.txt err.txt
	fi
}

case $class in
killed)
	# A case hung in vkWaitForFences; the runner is SIGKILLed 3 s in.
	VKQS_SELFTEST=1 "$vkqs" run --filter 'vkqs.selftest.driver.hang_in_wait_for_fences' \
		--filter 'vkqs.selftest.runner.pass' --jobs 1 --timeout 300 \
		--json "$work/hang.json" --csv "$work/hang.csv" >hang.out 2>&1 &
	runner=$!
	sleep 3
	alive hang.json && ok || bad "the hanging run was not running after 3 s"
	kill -KILL "$runner"
	wait "$runner" 2>/dev/null
	for _ in $(seq 50); do alive hang.json || break; sleep 0.1; done
	alive hang.json && { bad "a case process outlived the SIGKILLed runner"; pgrep -af -- "$work/hang.json"; } || ok
	json_check hang.json 'd["complete"] is False and len(st) == 2 and "Missing" in st' &&
		ok || bad "hang.json is not a valid incomplete result"
	[ "$(wc -l <hang.csv)" -eq 2 ] && ok || bad "hang.csv does not list both cases"

	# SIGHUP: the run stops as on SIGINT and writes what ran; exit 130.
	RD_DRAW_DELAY_US=200000 "$vkqs" run --filter 'vkqs.stats.*' --jobs 2 \
		--json "$work/hup.json" >hup.out 2>&1 &
	runner=$!
	sleep 3
	kill -HUP "$runner"
	wait "$runner"
	rc=$?
	[ "$rc" -eq 130 ] && ok || bad "SIGHUP: exit $rc, expected 130"
	alive hup.json && bad "a case process outlived the SIGHUP" || ok
	json_check hup.json 'd["complete"] is False and "Missing" in st' && ok ||
		bad "hup.json is not a valid incomplete result"

	# Killed half way, then --resume: one complete result, as a whole run.
	export RD_DRAW_DELAY_US=20000
	"$vkqs" run --filter 'vkqs.occlusion.*' --jobs 2 --json "$work/half.json" >half.out 2>&1 &
	runner=$!
	for _ in $(seq 300); do
		sleep 0.1
		json_check half.json 'sum(s != "Missing" for s in st) >= 5' 2>/dev/null && break
	done
	kill -KILL "$runner"
	wait "$runner" 2>/dev/null
	json_check half.json 'd["complete"] is False and "Missing" in st' && ok ||
		bad "half.json: not a valid incomplete result"
	one_line_exit2 "--resume with other options" "other options" \
		"$vkqs" run --filter 'vkqs.occlusion.precise.*' --resume "$work/half.json"
	"$vkqs" run --filter 'vkqs.occlusion.*' --jobs 2 --resume "$work/half.json" >resume.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && ok || { bad "--resume exited $rc"; tail -5 resume.out; }
	grep -q "resuming $work/half.json: [1-9][0-9]* cases have results" resume.out && ok ||
		bad "--resume did not say what it kept"
	"$vkqs" run --filter 'vkqs.occlusion.*' --jobs 2 --json "$work/whole.json" >whole.out 2>&1
	python3 - half.json whole.json <<'PY' && ok || bad "the resumed result differs from a whole run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["complete"] is True, "not complete"
sa = [(c["name"], c["status"]) for c in a["cases"]]
sb = [(c["name"], c["status"]) for c in b["cases"]]
assert sa == sb, [x for x in zip(sa, sb) if x[0] != x[1]][:3]
assert a["summary"] == b["summary"], (a["summary"], b["summary"])
PY
	unset RD_DRAW_DELAY_US
	;;
config)
	lim=$(ulimit -n)
	one_line_exit2 "--jobs over the open-file limit" "ulimit -n" \
		bash -c "ulimit -n 64 && exec '$vkqs' run --jobs 40 --filter 'vkqs.occlusion.*'"
	[ "$(ulimit -n)" = "$lim" ] || bad "ulimit leaked"
	one_line_exit2 "--device ''" "an empty value" "$vkqs" run --device '' --json "$work/x.json"
	[ ! -e x.json ] && ok || bad "--device '' wrote a report"
	RD_ARCH=tilr one_line_exit2 "RD_ARCH=tilr" "no device" "$vkqs" run --filter 'vkqs.occlusion.*'
	grep -q "RD_ARCH=tilr is not one of immediate, tiler" err.txt && ok || bad "RD_ARCH=tilr not named"
	RD_ACRH=tiler one_line_exit2 "RD_ACRH" "no device" "$vkqs" run --filter 'vkqs.occlusion.*'
	grep -q "RD_ACRH is not a knob" err.txt && ok || bad "RD_ACRH not named"
	RD_ARCH=tiler RD_TILE=64x48 "$vkqs" run --filter 'vkqs.occlusion.precise.*' \
		--json "$work/knobs.json" >knobs.out 2>&1
	json_check knobs.json 'd["refdevice"] == {"RD_ARCH": "tiler", "RD_TILE": "64x48"}' && ok ||
		bad "the JSON does not record the knobs"
	;;
order)
	# The victim fails after the spoiler in one process and passes alone:
	# order-dependent (unexpected, naming the spoiler), exit 1.  The flaky
	# case, which passes on any rerun, stays a flake.
	export VKQS_SELFTEST=1 VKQS_SELFTEST_ORDER=1 VKQS_SELFTEST_FLAKE_FILE=$work/flake-marker
	"$vkqs" run --filter 'vkqs.selftest.runner.order_*' --filter 'vkqs.selftest.runner.flaky' \
		--jobs 1 --json "$work/order.json" >order.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || { bad "order-dependent run exited $rc, expected 1"; cat order.out; }
	grep -q 'order_victim (UNEXPECTED: order-dependent)' order.out && ok || bad "not reported order-dependent"
	grep -q 'passes alone (Pass); fails again (Fail) after the .* vkqs.selftest.runner.order_spoiler' order.out &&
		ok || bad "the predecessors are not named"
	json_check order.json '[c["outcome"] for c in d["cases"]] == ["flake", "ok", "order_dependent"] and d["summary"]["unexpected"] == 1 and d["summary"]["flakes"] == 1' &&
		ok || bad "order.json outcomes"
	# Alone, the victim passes.
	"$vkqs" run --filter 'vkqs.selftest.runner.order_victim' >alone.out 2>&1 && ok || bad "the victim fails alone"
	unset VKQS_SELFTEST VKQS_SELFTEST_ORDER VKQS_SELFTEST_FLAKE_FILE
	;;
pinned)
	# An expected failure pinned to its message: the same failure is
	# expected; another failure of the same case is unexpected, said with
	# the pin; a malformed pin is refused before any case.
	export VKQS_SELFTEST=1
	printf '# pin: 2 \\+ 2.*5\nvkqs.selftest.runner.fail,Fail\n' >good-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./good >good.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && ok || { bad "a failure matching its pin: exit $rc"; cat good.out; }
	printf '# pin: observed 7\nvkqs.selftest.runner.fail,Fail\n' >other-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./other --json "$work/other.json" \
		>other.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || { bad "a failure not matching its pin: exit $rc"; cat other.out; }
	grep -q 'not the pinned failure' other.out && grep -q 'the pin /observed 7/' other.out && ok ||
		bad "the pin is not named"
	json_check other.json 'd["cases"][0]["outcome"] == "not_pinned" and d["cases"][0]["pin"] == "observed 7"' &&
		ok || bad "other.json does not record the pin"
	printf '# pin: (unclosed\nvkqs.selftest.runner.fail,Fail\n' >bad-fails.txt
	one_line_exit2 "a bad pin regex" "bad pin regex" \
		"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./bad
	printf 'vkqs.selftest.runner.fail,Fail\n# pin: x\n' >dangling-fails.txt
	one_line_exit2 "a pin with no entry" "no entry after it" \
		"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./dangling
	unset VKQS_SELFTEST
	;;
*)
	echo "usage: runner_robust.sh VKQS WORKDIR killed|config|order|pinned" >&2
	exit 2
	;;
esac
echo "runner_robust $class: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
