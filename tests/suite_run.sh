#!/usr/bin/env bash
# Runs one area of the suite on a driver with the validation layer and the
# driver's expectations, then checks that JSON, JUnit and CSV agree.
# Usage: suite_run.sh VKQS CHECK_REPORTS OUTDIR DEVICE EXPECTATIONS AREA
set -u
vkqs=$1 check=$2 out=$3 device=$4 exp=$5 area=$6
mkdir -p "$out"
base="$out/$device-$area"
"$vkqs" run --device "$device" --validation --expectations "$exp" \
	--filter "vkqs.$area.*" --json "$base.json" --junit "$base.xml" --csv "$base.csv"
rc=$?
python3 "$check" --json "$base.json" --junit "$base.xml" --csv "$base.csv" || exit 1
exit $rc
