#!/usr/bin/env bash
# The whole suite on the reference device under each spec-legal variation
# (refdevice/README.md), on both architectures: every case must still pass.
# Usage: refdevice_variations.sh VKQS EXPECTATIONS (the list: ci/refdevice-variations.txt)
set -u
vkqs=$1 exp=$2
list=$(cd "$(dirname "$0")/../ci" && pwd)/refdevice-variations.txt
cd "$(mktemp -d)" || exit 1
# vkqs.idle sleeps about 6 s a run: only the clock variations run it
# (ctest suite.refdevice.idle runs it once by default; tools/mutation.py
# does the same)
quick=()
for a in $("$vkqs" list | cut -d. -f2 | sort -u); do
	[ "$a" = idle ] || quick+=(--filter "vkqs.$a.*")
done
fail=0 pass=0
while read -r vars; do
	[ -z "$vars" ] && continue
	validation=--validation
	case $vars in NO_VALIDATION\ *) validation="" vars=${vars#NO_VALIDATION } ;; esac
	filters=("${quick[@]}")
	case $vars in *RD_CLOCK* | *RD_TIMESTAMP*) filters=() ;; esac
	for arch in immediate tiler; do
		if env RD_ARCH=$arch $vars "$vkqs" run --device refdevice $validation \
			--expectations "$exp" "${filters[@]}" >out.txt 2>&1; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)); echo "FAILED under RD_ARCH=$arch $vars:"
			grep -v '^NotSupported' out.txt | tail -20
		fi
	done
done < <(grep -v '^#' "$list")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
