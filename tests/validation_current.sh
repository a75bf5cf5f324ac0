#!/usr/bin/env bash
# The whole suite on the reference device under the newest Khronos
# validation layer the machine has (tools/current_layer.py: Debian's
# chromium-common ships a current one; Debian's own vulkan-validationlayers,
# 1.3.239, predates most extensions vkqs checks), each way the layer checks:
# core on both architectures, synchronization, and GPU-assisted (every
# shader instrumented, and the refdevice runs the instrumented shaders).
# A layer report fails its case, so each run must end with no unexpected
# result; its JSON must name the layer of the manifest (not another one the
# loader found), and the layer must be new enough for every extension vkqs
# uses.
# Usage: validation_current.sh VKQS EXPECTATIONS OUTDIR
set -u
vkqs=$1 exp=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 1
line=$(python3 "$here/../tools/current_layer.py" "$out/layer") || exit 1
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
	# passes: no unexpected result, checked by the manifest's layer, which
	# predates no extension vkqs uses (vkqs prints "validation: layer X
	# predates ..." when it does)
	if env VK_LAYER_PATH="$out/layer" "${env[@]}" "$vkqs" run --device refdevice --validation \
		--expectations "$exp" --json "$json" >"$out/$mode.txt" 2>&1 &&
		python3 - "$json" "$version" <<'PY' &&
import json, sys
v = json.load(open(sys.argv[1]))["validation"]
if v.get("layer") != sys.argv[2]:
    sys.exit("the run was checked by layer %s, not %s" % (v.get("layer"), sys.argv[2]))
PY
		! grep '^validation: layer .* predates' "$out/$mode.txt"
	then
		pass=$((pass + 1)); echo "$mode: $(tail -n 2 "$out/$mode.txt" | head -n 1)"
	else
		fail=$((fail + 1)); echo "FAILED ($mode):"; grep -v '^NotSupported' "$out/$mode.txt" | tail -20
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
