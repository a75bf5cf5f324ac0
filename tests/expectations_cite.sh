#!/usr/bin/env bash
# Every expected failure of ci/*-fails.txt cites the current spec
# (tools/check_expectations.py), and the checker has teeth: an entry without
# a citation, with a 'must:' quote lacking "must", with an older spec
# version, or a Fail backed only by a 'should:' is refused.
# Usage: expectations_cite.sh SRCDIR OUTDIR
set -u
src=$1 out=$2
check="$src/tools/check_expectations.py"
mkdir -p "$out" || exit 1
python3 "$check" "$src"/ci/*-fails.txt || exit 1
bad() { # name, file text: the checker must exit 1 on it
	printf '%s\n' "$2" >"$out/$1-fails.txt"
	python3 "$check" "$out/$1-fails.txt" >/dev/null
	[ $? -eq 1 ] || { echo "FAILED: the checker accepted $1"; exit 1; }
}
bad uncited 'vkqs.a.b,Fail'
bad no_must '# must: 1.4.360 queries.adoc "A value of zero indicates"
vkqs.a.b,Fail'
bad old_version '# defines: 1.4.300 queries.adoc "A value of zero indicates"
vkqs.a.b,Fail'
bad should_for_fail '# should: 1.4.360 fragops.adoc "should be performed"
vkqs.a.b,Fail'
bad blank_line_between '# defines: 1.4.360 queries.adoc "A value of zero indicates"

vkqs.a.b,Fail'
printf '%s\n' '# should: 1.4.360 fragops.adoc "should be performed"' 'vkqs.a.b,CompatibilityWarning' \
	>"$out/warn-fails.txt"
python3 "$check" "$out/warn-fails.txt" || { echo "FAILED: a cited warning was refused"; exit 1; }
python3 "$check" "$out/missing-fails.txt" 2>/dev/null
[ $? -eq 2 ] || { echo "FAILED: a missing file did not exit 2"; exit 1; }
echo "every expected failure cites the current spec; the checker refuses 5 bad files"
