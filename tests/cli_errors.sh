#!/usr/bin/env bash
# Bad input gives exactly one clear line on stderr and exit code 2, and
# writes no report file.  Usage: cli_errors.sh VKQS WORKDIR
set -u
vkqs=$1
work=$2
mkdir -p "$work"
cd "$work" || exit 1
pass=0 fail=0

printf 'vkqs.occlusion.nope,Flaky\n' >bad-fails.txt
printf 'vkqs.(unclosed\n' >badre-skips.txt
printf 'vkqs.no.such.case\n' >bad-caselist.txt

expect_usage_error() {
	local what=$1; shift
	rm -f out.json
	"$vkqs" "$@" --json out.json >stdout.txt 2>stderr.txt </dev/null
	local rc=$? lines
	lines=$(wc -l <stderr.txt)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^vkqs: error: ' stderr.txt && [ ! -e out.json ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: $what: rc=$rc, $lines stderr lines:"; cat stderr.txt
	fi
}
# --json is accepted by run only; for the other commands test without it.
expect_plain_error() {
	local what=$1; shift
	"$vkqs" "$@" >stdout.txt 2>stderr.txt </dev/null
	local rc=$? lines
	lines=$(wc -l <stderr.txt)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^vkqs: error: ' stderr.txt; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAILED: $what: rc=$rc, $lines stderr lines:"; cat stderr.txt
	fi
}

expect_plain_error "no command"
expect_plain_error "unknown command" frobnicate
expect_plain_error "unknown list option" list --bogus
expect_plain_error "info: unknown device" info --device no-such-gpu-anywhere
expect_plain_error "info: device index out of range" info --device 99
expect_usage_error "unknown run option" run --bogus
expect_usage_error "missing value" run --timeout
expect_usage_error "bad timeout" run --timeout -3
expect_usage_error "bad jobs" run --jobs zero
expect_usage_error "bad shard" run --shard 3/2
expect_usage_error "filter matching nothing" run --filter 'vkqs.nothing.*'
expect_usage_error "unknown device" run --device no-such-gpu-anywhere --filter 'vkqs.occlusion.*'
expect_usage_error "missing expectations" run --expectations ./none
expect_usage_error "malformed fails file" run --expectations ./bad
expect_usage_error "malformed skips regex" run --expectations ./badre
expect_usage_error "unknown caselist entry" run --caselist bad-caselist.txt
expect_usage_error "unreadable caselist" run --caselist ./missing.txt
# A warning about the inputs does not come before a refusal of them: the
# refusal is the one line (warnings wait for every input check, cli.c
# warn_input).
printf 'vkqs.no.such.case,Fail\n' >warnskip-fails.txt
printf 'vkqs\\..*\n' >warnskip-skips.txt
expect_usage_error "unknown expected case, then nothing selected" \
	run --expectations ./warnskip --filter 'vkqs.occlusion.*'
# A byte order mark (Windows editors write one) starts no name: a caselist
# and expectations saved with one read as without it.
C=vkqs.results.get.size_32_none_stride_packed
printf '\xef\xbb\xbf%s\n' "$C" >bom-caselist.txt
printf '\xef\xbb\xbf%s,Fail\n' "$C" >bom-fails.txt
printf '\xef\xbb\xbf^%s$\n' "$C" >bomskip-skips.txt
rm -f bom.json
"$vkqs" run --caselist bom-caselist.txt --expectations ./bom --json bom.json >stdout.txt 2>stderr.txt </dev/null
rc=$?
# the caselist selected the case, the fails entry applied to it: it
# passed where a Fail was expected
if [ "$rc" -eq 1 ] && [ ! -s stderr.txt ] && grep -q "1 cases on" stdout.txt &&
	python3 -c 'import json, sys
c = json.load(open("bom.json"))["cases"]
sys.exit(not (len(c) == 1 and c[0]["name"] == sys.argv[1] and c[0]["outcome"] == "unexpected_pass"))' "$C"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAILED: BOM caselist and fails file: rc=$rc"; cat stderr.txt
fi
"$vkqs" run --filter "$C" --expectations ./bomskip >stdout.txt 2>stderr.txt </dev/null
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'no case selected' stderr.txt; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAILED: BOM skips file did not skip: rc=$rc"; cat stderr.txt
fi
# A driver list naming no usable driver: the loader finds no device.
VK_DRIVER_FILES=/nonexistent/icd.json expect_usage_error "missing driver" run --filter 'vkqs.occlusion.*'

# Every command answers --help (and -h) with its own usage on stdout, exit 0.
for cmd in list devices info run report merge; do
	for h in --help -h; do
		out=$("$vkqs" $cmd $h 2>&1)
		rc=$?
		if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | head -n 1 | grep -q "^usage: vkqs $cmd"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)); echo "FAILED: vkqs $cmd $h: exit $rc, output: $(printf '%s' "$out" | head -n 1)"
		fi
	done
done

# Output paths are checked before the first case, not after the last; a
# FIFO or a symlink is written through or its target replaced, never the
# path itself.
F='vkqs.reset.create_reset.*'
for bad in /nonexistent-dir/r.json . ''; do
	"$vkqs" run --filter "$F" --csv "$bad" >stdout.txt 2>stderr.txt </dev/null
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <stderr.txt)" -eq 1 ] && ! grep -q 'cases on' stdout.txt; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAILED: --csv '$bad': rc=$rc, the run started or said more"; cat stderr.txt
	fi
done
rm -rf outs && mkdir outs && echo old >outs/target && ln -s target outs/link && mkfifo outs/fifo
# the reader is waited for: on a busy machine it may not have written what
# it read when vkqs exits
cat outs/fifo >outs/from-fifo.txt &
reader=$!
"$vkqs" run --filter "$F" --json outs/link --csv outs/fifo >/dev/null 2>&1
wait "$reader"
if [ -L outs/link ] && [ -p outs/fifo ] && grep -q vkqs-results outs/target &&
	grep -q create_reset outs/from-fifo.txt; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAILED: a symlink or FIFO output was replaced or not written"; ls -la outs
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
