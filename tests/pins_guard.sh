#!/usr/bin/env bash
# No pin in ci/ guards nothing (issue 43): the cases that ci/*-fails.txt
# pins run on the reference device, where they pass, and no pin may match
# an item (a failure or a note) of such a passing run whole
# (tools/check_pins.py): a pin that matches a note matched the case's
# passing run too, so the failure it was written for could change unseen.
# Usage: pins_guard.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work" || exit 1
# the pinned entries' names, those this build has
"$vkqs" list >"$work/all.txt" || exit 1
grep -h -A1 '^# pin: ' "$src"/ci/*-fails.txt | grep -v '^#' | grep -v '^--' | cut -d, -f1 |
	sort -u | grep -Fxf "$work/all.txt" >"$work/pinned.txt"
[ -s "$work/pinned.txt" ] || { echo "no pinned case found"; exit 1; }
"$vkqs" run --caselist "$work/pinned.txt" --json "$work/refdevice.json" >"$work/run.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { echo "the pinned cases on the refdevice: exit $rc"; tail -5 "$work/run.out"; exit 1; }
python3 "$src/tools/check_pins.py" "$work/refdevice.json" "$src"/ci/*-fails.txt
