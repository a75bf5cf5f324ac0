#!/usr/bin/env bash
# The whole suite on the reference device under the newest Khronos
# validation layer the machine has (tools/current_layer.py: Debian's
# chromium-common ships a current one; Debian's own vulkan-validationlayers,
# 1.3.239, predates most extensions vkqs checks), each way the layer checks:
# core on both architectures, synchronization, and GPU-assisted (every
# shader instrumented, and the refdevice runs the instrumented shaders).
# A layer report fails its case, so each run must end with no unexpected
# result; its JSON must name the layer of the manifest (not another one the
# loader found).  A layer older than some extension vkqs uses cannot judge
# the areas that use it: the test then says which (vkqs prints "validation:
# layer X predates ...") and exits 77, which ctest reports as skipped, after
# the runs pass; with VKQS_REQUIRE_CURRENT_LAYER=1 (ci/test.sh under CI) that
# is a failure instead: CI insists on a current layer.
# Usage: validation_current.sh VKQS EXPECTATIONS OUTDIR
# (VKQS_LAYER_LIBRARY=PATH: that layer library instead of the newest)
set -u
vkqs=$1 exp=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 1
line=$(python3 "$here/../tools/current_layer.py" "$out/layer" ${VKQS_LAYER_LIBRARY:+--library "$VKQS_LAYER_LIBRARY"}) || exit 1
echo "$line"
version=${line#VK_LAYER_KHRONOS_validation }
version=${version%% *}
fail=0 pass=0
for mode in core tiler sync gpuav; do
	env=()
	case $mode in
	tiler) env=(RD_ARCH=tiler) ;;
	sync) env=(VK_LAYER_VALIDATE_SYNC=1) ;;
	gpuav) env=(VK_LAYER_GPUAV_ENABLE=1) ;;
	esac
	json=$out/$mode.json
	# passes: no unexpected result, checked by the manifest's layer
	if env VK_LAYER_PATH="$out/layer" "${env[@]}" "$vkqs" run --device refdevice --validation \
		--expectations "$exp" --json "$json" >"$out/$mode.txt" 2>&1 &&
		python3 - "$json" "$version" <<'PY' &&
import json, sys
v = json.load(open(sys.argv[1]))["validation"]
if v.get("layer") != sys.argv[2]:
    sys.exit("the run was checked by layer %s, not %s" % (v.get("layer"), sys.argv[2]))
PY
		true
	then
		pass=$((pass + 1)); echo "$mode: $(tail -n 2 "$out/$mode.txt" | head -n 1)"
	else
		fail=$((fail + 1)); echo "FAILED ($mode):"; grep -v '^NotSupported' "$out/$mode.txt" | tail -20
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
old=$(grep -h -m1 '^validation: layer .* predates' "$out"/core.txt)
if [ -n "$old" ]; then
	echo "not validated here: ${old#validation: }"
	if [ "${VKQS_REQUIRE_CURRENT_LAYER:-0}" = 1 ]; then
		echo "FAILED: VKQS_REQUIRE_CURRENT_LAYER=1 and layer $version is not current"
		exit 1
	fi
	exit 77
fi
