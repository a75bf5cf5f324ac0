#!/usr/bin/env bash
# Speed of the reference device, printed (a benchmark, not a timed test):
# - the whole suite on refdevice vs on lavapipe: wall time of each, ratio;
# - vkGetQueryPoolResults of 1M 64-bit results vs memcpy of the same bytes,
#   on refdevice and on lavapipe.
# Usage: ci/bench-refdevice.sh [RUNS]   (best of RUNS suite runs, default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/vkqs ] || ci/build.sh >/dev/null
runs=${1:-3}
best() { # best wall time in ms of `vkqs run` on device $1 over $runs runs
	local b=0 s e ms
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		build/vkqs run --device "$1" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		ms=$(( (e - s) / 1000000 ))
		if [ "$b" -eq 0 ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
	done
	echo "$b"
}
n=$(build/vkqs list | wc -l)
rd=$(best refdevice)
lvp=$(best llvmpipe)
echo "whole suite ($n cases, $(nproc) cores, best of $runs):"
echo "  refdevice: ${rd} ms"
echo "  lavapipe:  ${lvp} ms"
echo "  refdevice / lavapipe wall time: $(awk "BEGIN { printf \"%.2f\", $rd / $lvp }")"
echo "readback, refdevice:"
build/rd_bench_readback refdevice | sed 's/^/  /'
echo "readback, lavapipe:"
build/rd_bench_readback llvmpipe | sed 's/^/  /'
