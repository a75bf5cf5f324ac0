#!/usr/bin/env bash
# Runs one area of the suite on a driver with the validation layer and the
# driver's expectations, then checks that JSON, JUnit and CSV agree.
# Usage: suite_run.sh VKQS CHECK_REPORTS OUTDIR DEVICE EXPECTATIONS AREA|all
set -u
vkqs=$1 check=$2 out=$3 device=$4 exp=$5 area=$6
mkdir -p "$out"
base="$out/$device-$area"
filter="vkqs.$area.*"
[ "$area" = all ] && filter='vkqs.*'
"$vkqs" run --device "$device" --validation --expectations "$exp" \
	--filter "$filter" --json "$base.json" --junit "$base.xml" --csv "$base.csv"
rc=$?
python3 "$check" --json "$base.json" --junit "$base.xml" --csv "$base.csv" || exit 1
# InternalError is vkqs's own bug; a limit of the harness on a device is
# NotSupported naming the property (vkqs_harness_limit): none may appear.
python3 - "$base.json" <<'PY' || exit 1
import json, sys
bad = [c["name"] for c in json.load(open(sys.argv[1]))["cases"] if c["status"] == "InternalError"]
if bad:
    sys.exit("FAILED: InternalError (vkqs's own bug, or a harness limit that should be "
             "NotSupported): " + ", ".join(bad))
PY
exit $rc
