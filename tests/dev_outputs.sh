#!/usr/bin/env bash
# Reports written to /dev/null, /dev/full and /dev/stdout are written
# through, never replaced by a regular file (issue 39: as root, `vkqs report
# --html /dev/null` once turned the machine's /dev/null into a file).  Runs
# in a private mount namespace with a /dev of its own (tmpfs, the device
# nodes made anew), so the machine's /dev is never at stake; where the
# namespace cannot be made (no root, no unshare) it is skipped (exit 77).
# Usage: dev_outputs.sh VKQS WORKDIR
set -u
vkqs=$1
work=$2
if [ "${3:-}" != inner ]; then
	if ! unshare -m --propagation private true 2>/dev/null; then
		echo "dev_outputs: SKIPPED: cannot make a private mount namespace (needs root and unshare)"
		exit 77
	fi
	exec unshare -m --propagation private "$0" "$vkqs" "$work" inner
fi
rm -rf "$work"; mkdir -p "$work"
cd "$work" || exit 1
mount -t tmpfs tmpfs /dev || { echo "dev_outputs: SKIPPED: cannot mount a private /dev"; exit 77; }
mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 &&
	ln -s /proc/self/fd/1 /dev/stdout ||
	{ echo "dev_outputs: SKIPPED: cannot make device nodes"; exit 77; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
kept() { # kept WHAT: /dev/null and /dev/full still devices, /dev/stdout a link
	if [ -c /dev/null ] && [ -c /dev/full ] && [ -L /dev/stdout ]; then ok; else
		bad "$1 replaced a device"; ls -la /dev; fi
}

F='vkqs.reset.create_reset.*'
"$vkqs" run --filter "$F" --json /dev/null --junit /dev/null --csv /dev/null >run.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "run into /dev/null: exit $rc"; cat run.out; }
kept "run --json /dev/null"
# /dev/stdout is the console log's file (or pipe): writing the JSON there
# corrupted both (the JSON reopened the log at offset 0).  Refused, one
# line, nothing written; the same for merge and report.
"$vkqs" run --filter "$F" --json /dev/stdout >stdout.json 2>run2.err
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <run2.err)" -eq 1 ] && ! grep -q '"format"' stdout.json && ok ||
	bad "run --json /dev/stdout into a file: exit $rc, $(cat run2.err)"
"$vkqs" run --filter "$F" --csv /dev/stdout 2>run3.err | cat >piped.txt
rc=${PIPESTATUS[0]}
[ "$rc" -eq 2 ] && [ ! -s piped.txt ] && ok || bad "run --csv /dev/stdout into a pipe: exit $rc"
kept "run --json /dev/stdout"
"$vkqs" run --filter "$F" --json /dev/full >full.out 2>full.err
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <full.err)" -eq 1 ] && ok || { bad "run --json /dev/full: exit $rc"; cat full.err; }
kept "run --json /dev/full"

"$vkqs" run --filter "$F" --shard 1/1 --json shard.json >shard.out 2>&1
"$vkqs" report shard.json --html /dev/null --md /dev/null >report.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "report into /dev/null: exit $rc"; cat report.out; }
kept "report --html /dev/null"
"$vkqs" merge /dev/null shard.json >merge.out 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok || { bad "merge into /dev/null: exit $rc"; cat merge.out; }
kept "merge /dev/null"
"$vkqs" merge /dev/stdout shard.json >merged.out 2>merge2.err
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <merge2.err)" -eq 1 ] && ! grep -q Traceback merge2.err && ok ||
	bad "merge /dev/stdout into a file: exit $rc, $(cat merge2.err)"
"$vkqs" report shard.json --md /dev/stdout >rep.out 2>rep2.err
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <rep2.err)" -eq 1 ] && ok ||
	bad "report --md /dev/stdout into a file: exit $rc, $(cat rep2.err)"
"$vkqs" report shard.json --md /dev/full >rfull.out 2>rfull.err
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <rfull.err)" -eq 1 ] && ! grep -q Traceback rfull.err && ok ||
	{ bad "report --md /dev/full: exit $rc"; cat rfull.err; }
kept "report --md /dev/full"

echo "dev_outputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
