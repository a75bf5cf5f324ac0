#!/usr/bin/env bash
# The whole suite on the reference device under each spec-legal variation
# (refdevice/README.md), on both architectures: every case must still pass.
# Usage: refdevice_variations.sh VKQS EXPECTATIONS
set -u
vkqs=$1 exp=$2
cd "$(mktemp -d)" || exit 1
fail=0 pass=0
while read -r vars; do
	[ -z "$vars" ] && continue
	for arch in immediate tiler; do
		if env RD_ARCH=$arch $vars "$vkqs" run --device refdevice --validation \
			--expectations "$exp" >out.txt 2>&1; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1)); echo "FAILED under RD_ARCH=$arch $vars:"
			grep -v '^NotSupported' out.txt | tail -20
		fi
	done
done <<'VARIATIONS'
RD_TIMESTAMP_PERIOD=52.083
RD_TIMESTAMP_PERIOD=0.1
RD_TIMESTAMP_VALID_BITS=36 RD_TRANSFER_TIMESTAMP_VALID_BITS=36
RD_TIMESTAMP_VALID_BITS=40 RD_CLOCK_START=1099511620000
RD_TRANSFER_TIMESTAMP_VALID_BITS=64
RD_CLOCK=host
RD_NONPRECISE_OCCLUSION=one
RD_NONPRECISE_OCCLUSION=other
RD_MULTIVIEW_QUERIES=spread
RD_RESULT_OVERFLOW=saturate
RD_AVAILABILITY_VALUE=2
RD_AVAILABILITY_VALUE=4294967295
RD_RESULT_LATENCY_US=200
VARIATIONS
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
