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
#   lifecycle  every wait ends (issue 43): `vkqs run | head -1` stops within
#            10 s, 10 runs of 10, SIGPIPE default or ignored; a driver that
#            hangs while loading costs --timeout and one line, and the result
#            file says so (run, devices, info); SIGTERM ends a run at once;
#            an inherited SIG_IGN (nohup) is kept; a stop during the reruns
#            is incomplete; an unusable TMPDIR is refused before any case;
#            a crash and a timeout are followed by the device health check.
#   outputs    an output naming an input (expectations, caselist, the
#            binary), another output or the file behind stdout is refused
#            in one line and nothing is touched; a 252-byte name works, a
#            300-byte one is refused before any case; the pin tool leaves
#            the file whole when the write fails.
#   results    one results model: a SIGKILLed run's journal, `vkqs report`
#            and tools/results_table.py say incomplete and count the cases
#            not run; the summary's classes add up to the case count on
#            every surface.
# Usage: runner_robust.sh VKQS WORKDIR CLASS [HANG_ICD]
set -u
vkqs=$1 work=$2 class=$3 hang_icd=${4:-} pass=0 fail=0
src=$(cd "$(dirname "$0")/.." && pwd)
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
s = d.get("summary")
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

# wait_then_kill SIGNAL PID FILE N: once FILE (a streamed journal) holds N
# cases done, sends SIGNAL to PID and reaps it (its exit code in rc_killed)
wait_then_kill() {
	for _ in $(seq 300); do
		sleep 0.1
		json_check "$3" "sum(s != 'Missing' for s in st) >= $4" 2>/dev/null && break
	done
	kill "-$1" "$2" || bad "the run ended before its SIG$1"
	wait "$2" 2>/dev/null
	rc_killed=$?
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
	wait_then_kill KILL $! half.json 5
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
	# --resume keeps the order context (issue 43): a journal whose process
	# was cut short between the spoiler and the victim runs that process
	# again whole, and a finished process gives its cases their
	# predecessors: the victim stays order-dependent, never a flake or a Pass.
	F=(--filter 'vkqs.selftest.runner.order_*' --filter 'vkqs.selftest.runner.pass' --jobs 1)
	"$vkqs" run "${F[@]}" --json "$work/ord.json" >ord.out 2>&1
	python3 - ord.json cut.json kept.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["complete"] = False
names = [c["name"] for c in d["cases"]]
cut = json.loads(json.dumps(d))
for c in cut["cases"]:  # the kill fell between the spoiler and the victim
    if c["name"].endswith("order_victim"):
        c.update(status="Missing", outcome="not_run", message="", failures=[], notes=[])
json.dump(cut, open(sys.argv[2], "w"))
kept = json.loads(json.dumps(d))  # the kill fell in the rerun phase
for c in kept["cases"]:
    c["outcome"] = "unexpected" if c["status"] == "Fail" else c["outcome"]
json.dump(kept, open(sys.argv[3], "w"))
PY
	for j in cut kept; do
		"$vkqs" run "${F[@]}" --resume "$work/$j.json" >"$j.out" 2>&1
		rc=$?
		[ "$rc" -eq 1 ] && json_check "$j.json" '[c["outcome"] for c in d["cases"] if c["name"].endswith("order_victim")] == ["order_dependent"]' &&
			ok || { bad "--resume of a journal cut ($j): exit $rc, the victim not order-dependent"; cat "$j.out"; }
	done
	grep -q '1 run now (1 of them again' cut.out || grep -q 'run now ([1-9] of them again' cut.out && ok ||
		bad "the cut-short process was not run again whole: $(grep resuming cut.out)"
	unset VKQS_SELFTEST VKQS_SELFTEST_ORDER VKQS_SELFTEST_FLAKE_FILE
	;;
pinned)
	# An expected failure pinned to its failure ("# pin:", matched whole
	# against each failure without its file:line, anchored): the same
	# failure is expected; a pin matching only part of it, or a second
	# failure of the same case, is not_pinned (unexpected); a note (no
	# verdict) needs no pin and a pin matching only a note pins nothing; a
	# malformed pin is refused before any case.
	export VKQS_SELFTEST=1
	printf '# pin: expected 2 \\+ 2 == [0-9]+, got [0-9]+ \\(0x[0-9a-fA-F]+\\) vs [0-9]+ \\(0x[0-9a-fA-F]+\\)\nvkqs.selftest.runner.fail,Fail\n' >good-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./good --json "$work/good.json" >good.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && ok || { bad "a failure matching its pin: exit $rc"; cat good.out good-fails.txt; }
	json_check good.json 'len(d["cases"][0]["failures"]) == 1 and d["cases"][0]["failures"][0].endswith(": expected 2 + 2 == 5, got 4 (0x4) vs 5 (0x5)") and len(d["cases"][0]["notes"]) == 1 and d["cases"][0]["notes"][0].endswith(": value 3 is undefined, no verdict")' &&
		ok || bad "good.json does not keep failures and notes apart"
	VKQS_SELFTEST_SECOND=1 "$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./good \
		--json "$work/second.json" >second.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && grep -q "no pin of its entry matches the failure 'selftest.c:[0-9]*: a second bug: value 7'" second.out && ok ||
		{ bad "a second failure beside a pinned one: exit $rc"; cat second.out; }
	json_check second.json 'd["cases"][0]["outcome"] == "not_pinned" and "a second bug" in d["cases"][0]["unpinned"]' &&
		ok || bad "second.json does not name the unpinned failure"
	# Two pins, one for each failure: expected.
	printf '# pin: expected 2 \\+ 2 == 5, got 4 \\(0x4\\) vs 5 \\(0x5\\)\n# pin: a second bug: value [0-9]+\nvkqs.selftest.runner.fail,Fail\n' >two-fails.txt
	VKQS_SELFTEST_SECOND=1 "$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./two >two.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && ok || { bad "two failures, two pins: exit $rc"; cat two.out; }
	printf '# pin: 2 \\+ 2.*5\nvkqs.selftest.runner.fail,Fail\n' >part-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./part >part.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || { bad "a pin matching part of the failure: exit $rc"; cat part.out; }
	printf '# pin: value [0-9]+ is undefined, no verdict\nvkqs.selftest.runner.fail,Fail\n' >note-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./note >note.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || { bad "a pin matching only the note: exit $rc"; cat note.out; }
	printf '# pin: observed 7\nvkqs.selftest.runner.fail,Fail\n' >other-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./other --json "$work/other.json" \
		>other.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || { bad "a failure not matching its pin: exit $rc"; cat other.out; }
	grep -q 'not the pinned failure' other.out && grep -q 'first pin: /observed 7/' other.out && ok ||
		bad "the pin is not named"
	json_check other.json 'd["cases"][0]["outcome"] == "not_pinned" and d["cases"][0]["pin"] == "observed 7"' &&
		ok || bad "other.json does not record the pin"
	printf '# pin: (unclosed\nvkqs.selftest.runner.fail,Fail\n' >bad-fails.txt
	one_line_exit2 "a bad pin regex" "bad pin regex" \
		"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./bad
	printf 'vkqs.selftest.runner.fail,Fail\n# pin: x\n' >dangling-fails.txt
	one_line_exit2 "a pin with no entry" "no entry after it" \
		"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./dangling
	for typo in '#pin: x' '# Pin: x' '#  pin : x' '# PIN:x'; do
		printf '%s\nvkqs.selftest.runner.fail,Fail\n' "$typo" >typo-fails.txt
		one_line_exit2 "a malformed pin '$typo'" "a malformed pin" \
			"$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./typo
	done
	# The pin tool pins every failure, and what it writes matches.
	printf 'vkqs.selftest.runner.fail,Fail\n' >tool-fails.txt
	python3 "$src/tools/pin_expectations.py" second.json tool-fails.txt >tool.out 2>&1
	[ "$(grep -c '^# pin: ' tool-fails.txt)" -eq 2 ] && ok || { bad "the pin tool did not pin both failures"; cat tool-fails.txt; }
	VKQS_SELFTEST_SECOND=1 "$vkqs" run --filter 'vkqs.selftest.runner.fail' --expectations ./tool >tool-run.out 2>&1 &&
		ok || { bad "the pin tool's pins do not match the run they came from"; cat tool-run.out; }
	unset VKQS_SELFTEST
	;;
lifecycle)
	# A closed stdout: SIGPIPE (default) or EPIPE (SIGPIPE ignored, as
	# under some CI shells) stops the run; no wait blocks on a child.
	for i in $(seq 10); do
		ign=$([ $((i % 2)) -eq 0 ] && echo "trap '' PIPE;" || true)
		t0=$(date +%s%N)
		timeout -s KILL 30 bash -c "$ign '$vkqs' run --jobs 2 --json '$work/head$i.json' | head -1 >/dev/null; echo \${PIPESTATUS[0]} >'$work/head$i.rc'"
		ms=$((($(date +%s%N) - t0) / 1000000))
		rc=$(cat "head$i.rc" 2>/dev/null || echo killed)
		if [ "$ms" -lt 10000 ] && [ "$rc" = 130 ]; then ok; else bad "run | head -1 (#$i, ${ign:-SIGPIPE default}): exit $rc after $ms ms"; fi
	done
	json_check head1.json 'd["complete"] is False and "SIGPIPE" in d["stopped"] and d["summary"]["not_run"] == st.count("Missing") > 0' &&
		ok || bad "head1.json does not say the run stopped on a closed stdout"
	alive head && bad "a case process outlived a closed stdout" || ok
	# A closed stdout while every case hangs (a wedged GPU): no line is
	# written, the closed pipe itself stops the run.
	t0=$(date +%s%N)
	timeout -s KILL 60 bash -c "VKQS_SELFTEST=1 '$vkqs' run --filter 'vkqs.selftest.driver.hang_in_wait_for_fences' --jobs 2 --timeout 30 --json '$work/headhang.json' | head -1 >/dev/null; echo \${PIPESTATUS[0]} >'$work/headhang.rc'"
	ms=$((($(date +%s%N) - t0) / 1000000))
	rc=$(cat headhang.rc 2>/dev/null || echo killed)
	[ "$rc" = 130 ] && [ "$ms" -lt 10000 ] && ok || bad "run | head -1 with a hung case: exit $rc after $ms ms"

	# A driver that hangs in vk_icdNegotiateLoaderICDInterfaceVersion.
	printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' \
		"$hang_icd" >hang-icd.json
	for cmd in run devices info; do
		args=(--timeout 3)
		[ "$cmd" = run ] && args+=(--device 0 --filter 'vkqs.results.get.*' --json "$work/hung.json")
		[ "$cmd" = info ] && args+=(--device 0)
		t0=$(date +%s%N)
		VK_DRIVER_FILES=$work/hang-icd.json timeout -s KILL 60 "$vkqs" "$cmd" "${args[@]}" >hung.out 2>hung.err
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		if [ "$rc" -eq 2 ] && [ "$ms" -lt 8000 ] && [ "$(wc -l <hung.err)" -eq 1 ] &&
			grep -q 'did not answer within 3 s while loading or enumerating devices' hung.err; then
			ok
		else
			bad "$cmd on a hung driver: exit $rc after $ms ms"; cat hung.err
		fi
	done
	json_check hung.json 'd["complete"] is False and "did not answer" in d["stopped"] and set(st) == {"Missing"} and d["summary"]["not_run"] == len(st) == d["summary"]["unexpected"] and all("did not answer" in c["message"] for c in d["cases"])' &&
		ok || bad "hung.json does not say the driver hung"
	pgrep -f "$work/hang-icd" >/dev/null && bad "a process of the hung driver lives on" || ok

	# SIGTERM ends a run at once, with what ran.
	RD_DRAW_DELAY_US=200000 "$vkqs" run --filter 'vkqs.stats.*' --jobs 2 --json "$work/term.json" >term.out 2>&1 &
	runner=$!
	sleep 2
	t0=$(date +%s%N)
	kill -TERM "$runner"
	wait "$runner"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$rc" -eq 130 ] && [ "$ms" -lt 5000 ] && ok || bad "SIGTERM: exit $rc after $ms ms"
	json_check term.json 'd["complete"] is False and d["stopped"] == "interrupted by SIGTERM"' && ok ||
		bad "term.json does not say SIGTERM"

	# nohup: an inherited SIG_IGN for SIGHUP is kept, the run completes.
	RD_DRAW_DELAY_US=50000 bash -c "trap '' HUP; exec '$vkqs' run --filter 'vkqs.occlusion.*' --jobs 2 --json '$work/nohup.json'" >nohup.out 2>&1 &
	wait_then_kill HUP $! nohup.json 2
	rc=$rc_killed
	[ "$rc" -eq 0 ] && json_check nohup.json 'd["complete"] is True' && ok || bad "SIGHUP under nohup: exit $rc"

	# A stop during the reruns: incomplete, exit 130.  (SIGTERM: a
	# background job of a script inherits SIGINT ignored, and keeps it so.)
	VKQS_SELFTEST=1 "$vkqs" run --filter 'vkqs.selftest.driver.hang_in_wait_for_fences' \
		--filter 'vkqs.selftest.runner.pass' --jobs 1 --timeout 4 --json "$work/rerun.json" >rerun.out 2>&1 &
	runner=$!
	for _ in $(seq 300); do grep -q 'rerunning' rerun.out && break; sleep 0.1; done
	sleep 0.5
	kill -TERM "$runner"
	wait "$runner"
	rc=$?
	[ "$rc" -eq 130 ] && json_check rerun.json 'd["complete"] is False and "SIGTERM" in d["stopped"]' &&
		ok || bad "SIGTERM during the reruns: exit $rc"

	# TMPDIR that cannot take the cases' logs: refused before any case.
	TMPDIR=$work/no-such-dir one_line_exit2 "an unusable TMPDIR" "TMPDIR" \
		"$vkqs" run --filter 'vkqs.results.get.*' --json "$work/tmpdir.json"
	[ ! -e tmpdir.json ] && ok || bad "an unusable TMPDIR wrote a report"

	# The device health check runs after a crash and after a timeout
	# (--verbose says so; the default console keeps to what is unexpected).
	VKQS_SELFTEST=1 "$vkqs" run --filter 'vkqs.selftest.driver.crash_in_queue_submit' --no-rerun \
		--jobs 1 --verbose >crash.out 2>&1
	grep -q 'crash_in_queue_submit ended in Crash: checking the device' crash.out && ok ||
		bad "no health check after a crash"
	VKQS_SELFTEST=1 "$vkqs" run --filter 'vkqs.selftest.driver.hang_in_wait_for_fences' --no-rerun \
		--jobs 1 --timeout 2 --verbose >timeout.out 2>&1
	grep -q 'hang_in_wait_for_fences ended in Timeout: checking the device' timeout.out && ok ||
		bad "no health check after a timeout"
	;;
outputs)
	F='vkqs.results.get.size_32_*'
	same() { # same WHAT FILE SUM: the file is unchanged
		[ "$(sha256sum <"$2")" = "$3" ] && ok || bad "$1: the file was changed"
	}
	printf '# none\n' >e-fails.txt
	sum=$(sha256sum <e-fails.txt)
	one_line_exit2 "--json an expectations file" "an input" \
		"$vkqs" run --filter "$F" --expectations ./e --json e-fails.txt
	same "--json an expectations file" e-fails.txt "$sum"
	printf '# none\n' >e-flakes.txt
	one_line_exit2 "--csv an expectations file" "an input" \
		"$vkqs" run --filter "$F" --expectations ./e --csv e-flakes.txt
	"$vkqs" list --filter "$F" >cl.txt
	sum=$(sha256sum <cl.txt)
	one_line_exit2 "--csv the caselist" "the --caselist" "$vkqs" run --caselist cl.txt --csv cl.txt
	same "--csv the caselist" cl.txt "$sum"
	cp "$vkqs" vkqs-copy
	sum=$(sha256sum <vkqs-copy)
	one_line_exit2 "--json the binary" "the vkqs binary" ./vkqs-copy run --filter "$F" --json vkqs-copy
	same "--json the binary" vkqs-copy "$sum"
	one_line_exit2 "--json and --csv one file" "name one file" \
		"$vkqs" run --filter "$F" --json a.out --csv a.out
	echo keep >b1.json && ln -f b1.json b2.json
	one_line_exit2 "two outputs, hard links of one file" "name one file" \
		"$vkqs" run --filter "$F" --json b1.json --junit b2.json
	echo log >log.txt
	"$vkqs" run --filter "$F" --json /dev/stdout >>log.txt 2>stdout.err
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(cat log.txt)" = log ] && grep -q 'standard output' stdout.err && ok ||
		bad "--json /dev/stdout into a log: exit $rc"
	# --resume's result with another --json: an input
	"$vkqs" run --filter "$F" --json r.json >/dev/null 2>&1
	sum=$(sha256sum <r.json)
	ln -f r.json r2.json
	one_line_exit2 "--resume R --csv R" "an input" \
		"$vkqs" run --filter "$F" --resume r.json --json r3.json --csv r2.json
	same "--resume R --csv R" r.json "$sum"
	# names near NAME_MAX: the temporary fits whatever the name
	long=$(printf 'a%.0s' $(seq 252))
	"$vkqs" run --filter "$F" --json "$work/$long" --csv "$work/$long.c" >long.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && json_check "$long" 'd["complete"] is True' && ok || { bad "a 252-byte name: exit $rc"; tail -3 long.out; }
	too=$(printf 'b%.0s' $(seq 300))
	one_line_exit2 "a 300-byte name" "File name too long" "$vkqs" run --filter "$F" --json "$work/$too"
	"$vkqs" bench --quick --filter 'vkqs.bench.timestamp.resolution_graphics' --json "$work/$long.b" >bench.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && grep -q 'benchmarks (' bench.out && [ -s "$long.b" ] && ok || bad "bench into a 252-byte name: exit $rc"
	ls -a | grep -q '^\..*\.[A-Za-z0-9]\{6\}$' && bad "a temporary file was left: $(ls -a | grep '^\.')" || ok
	# The pin tool replaces the file whole or not at all (a write that
	# fails half way: RLIMIT_FSIZE below the file's size).
	python3 - <<'PY'
import json
cases = [{"name": "vkqs.x.c%d" % i, "status": "Fail", "message": "x.c:1: value %d wrong" % i}
         for i in range(400)]
json.dump({"cases": cases}, open("pin.json", "w"))
open("p-fails.txt", "w").write("".join("# why %d\nvkqs.x.c%d,Fail\n" % (i, i) for i in range(400)))
PY
	sum=$(sha256sum <p-fails.txt)
	(ulimit -f 8 && exec python3 "$src/tools/pin_expectations.py" pin.json p-fails.txt) >pin.out 2>pin.err
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <pin.err)" -eq 1 ] && ! grep -q Traceback pin.err && ok ||
		{ bad "the pin tool on a failing write: exit $rc"; cat pin.err; }
	same "the pin tool on a failing write" p-fails.txt "$sum"
	;;
results)
	# SIGKILL half way: the journal is the run's only account.
	RD_DRAW_DELAY_US=20000 "$vkqs" run --filter 'vkqs.occlusion.*' --jobs 2 --json "$work/k.json" \
		--csv "$work/k.csv" --junit "$work/k.xml" >k.out 2>&1 &
	wait_then_kill KILL $! k.json 5
	partition='sum(s[k] for k in ("pass", "not_supported", "warnings", "expected_fails", "flakes", "failed", "not_run")) == s["total"] == len(st)'
	json_check k.json "d['complete'] is False and d['stopped'] and $partition and s['not_run'] == st.count('Missing') > 0 and s['unexpected'] >= s['not_run'] and all(c['outcome'] == 'not_run' for c in d['cases'] if c['status'] == 'Missing')" &&
		ok || bad "the SIGKILLed journal does not count its cases not run"
	# JUnit is written at the end, also of a stopped run: it says so too
	RD_DRAW_DELAY_US=20000 "$vkqs" run --filter 'vkqs.occlusion.*' --jobs 2 --json "$work/t.json" \
		--junit "$work/t.xml" >t.out 2>&1 &
	wait_then_kill TERM $! t.json 5
	grep -q '<property name="complete" value="false"/><property name="not_run" value="[1-9][0-9]*"/><property name="stopped" value="interrupted by SIGTERM"/>' t.xml &&
		ok || bad "the JUnit of a stopped run does not say incomplete"
	"$vkqs" report k.json --md k.md >report.out 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && ok || bad "vkqs report of an incomplete run: exit $rc, expected 1"
	head -n 3 k.md | grep -qi 'incomplete' && ok || bad "the report's first lines do not say incomplete: $(head -3 k.md)"
	grep -q "not run" k.md && ok || bad "the report does not count the cases not run"
	mkdir -p rt && cp k.json rt/
	python3 "$src/tools/results_table.py" rt rt.md >/dev/null 2>&1
	grep -qi 'incomplete' rt.md && ! grep -q '| 0 not run' rt.md && ok || bad "results_table: $(grep k.json rt.md)"
	# The summary line's classes add up to the case count: expected
	# failures whose status is a warning or NotSupported, unexpected passes
	# and flakes counted once.
	export VKQS_SELFTEST=1 VKQS_SELFTEST_FLAKE_FILE=$work/flake-marker
	printf 'vkqs.selftest.runner.fail,Fail\nvkqs.selftest.runner.not_supported,NotSupported\nvkqs.selftest.runner.pass,Fail\n' >s-fails.txt
	"$vkqs" run --filter 'vkqs.selftest.runner.*' --expectations ./s --jobs 1 --json "$work/s.json" >s.out 2>&1
	python3 - s.out <<'PY' && ok || bad "the summary line: $(grep ' cases on ' s.out)"
import re, sys
line = [l for l in open(sys.argv[1]) if " cases on " in l][-1]
n = int(line.split()[0])
m = re.search(r": (\d+) Pass, (\d+) NotSupported, (\d+) warnings, (\d+) expected failures, "
              r"(\d+) flakes, (\d+) unexpected \((\d+) unexpected passes\), (\d+) not run", line)
parts = [int(x) for i, x in enumerate(m.groups()) if i != 6]
assert sum(parts) == n, (parts, n)
PY
	json_check s.json "$partition and s['unexpected_passes'] == 1 and s['expected_fails'] == 2" && ok ||
		bad "s.json summary does not partition"
	unset VKQS_SELFTEST VKQS_SELFTEST_FLAKE_FILE
	# An empty shard (more shards than cases) writes its empty result, and
	# the merge finds every shard.
	G=(--filter 'vkqs.results.get.size_32_none_stride_packed' --filter 'vkqs.results.get.size_64_none_stride_packed')
	for i in 1 2 3; do "$vkqs" run "${G[@]}" --shard "$i/3" --json "$work/sh$i.json" >"sh$i.out" 2>&1 || bad "shard $i/3 exited $?"; done
	"$vkqs" merge "$work/m.json" "$work/sh1.json" "$work/sh2.json" "$work/sh3.json" >merge.out 2>&1 &&
		json_check m.json 'len(st) == 2 and d["complete"] is True' && ok || { bad "merge with an empty shard"; cat merge.out; }
	;;
*)
	echo "usage: runner_robust.sh VKQS WORKDIR killed|config|order|pinned|lifecycle|outputs|results" >&2
	exit 2
	;;
esac
echo "runner_robust $class: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
