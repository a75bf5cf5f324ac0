#!/usr/bin/env bash
# The whole suite on the reference device's tile-based architecture
# (RD_ARCH=tiler, refdevice/README.md "Architectures") under the validation
# layer, with tile sizes that divide the targets, that do not, and that are
# not powers of two: every case must pass as on the immediate architecture.
# Usage: refdevice_tiler.sh VKQS EXPECTATIONS
set -u
vkqs=$1 exp=$2
cd "$(mktemp -d)" || exit 1
fail=0 pass=0
for tile in 16x16 32x32 64x48; do
	if RD_ARCH=tiler RD_TILE=$tile "$vkqs" run --device refdevice --validation \
		--expectations "$exp" >out.txt 2>&1; then
		pass=$((pass + 1)); tail -n 2 out.txt | head -n 1
	else
		fail=$((fail + 1)); echo "FAILED with RD_TILE=$tile:"; grep -v '^NotSupported' out.txt | tail -20
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
