#!/usr/bin/env bash
# PREFIX-serial.txt: the cases it names run after every other case has
# finished, one at a time.  The accel area (NotSupported on the reference
# device; --verbose prints a line for each as it ends) is made serial: every accel line
# must come after the serial marker and after every other area's line, and
# the JSON counts them.
# Usage: runner_serial.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
cp "$root/ci/refdevice-fails.txt" "$work/x-fails.txt"
printf '# the accel area, for the test\n^vkqs\\.accel\\.\n' >"$work/x-serial.txt"
"$vkqs" run --device refdevice --expectations "$work/x" --jobs 4 --verbose \
	--filter 'vkqs.accel.*' --filter 'vkqs.timestamp.*' --filter 'vkqs.xfb.*' \
	--json "$work/out.json" >"$work/out.txt" 2>&1 || { tail "$work/out.txt"; fail "run"; }
"$vkqs" list --filter 'vkqs.accel.*' --filter 'vkqs.timestamp.*' --filter 'vkqs.xfb.*' \
	>"$work/list.txt" || fail "list"
python3 - "$work/out.txt" "$work/out.json" "$work/list.txt" <<'PY' || exit 1
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith(("NotSupported", "vkqs: "))]
marker = [i for i, l in enumerate(lines) if "serial case(s) now" in l]
serial = [i for i, l in enumerate(lines) if " vkqs.accel." in l]
other = [i for i, l in enumerate(lines) if l.startswith("NotSupported") and " vkqs.accel." not in l]
if len(marker) != 1 or not serial or not other:
    sys.exit("FAIL: marker %s, %d accel lines, %d others" % (marker, len(serial), len(other)))
if min(serial) < marker[0] or max(other) > marker[0]:
    sys.exit("FAIL: a serial case ended before the others (marker at %d, serial %s, last other %d)"
             % (marker[0], serial[:3], max(other)))
d = json.load(open(sys.argv[2]))
names = [c["name"] for c in d["cases"]]
listed = [l.strip() for l in open(sys.argv[3])]
accel = sum(1 for n in listed if n.startswith("vkqs.accel."))
if d["serial"] != len(serial) or d["serial"] != accel:
    sys.exit("FAIL: serial %r, %d accel lines, %d accel cases listed" % (d["serial"], len(serial), accel))
if names != listed:
    sys.exit("FAIL: the results are not in list order (the serial cases moved)")
print("runner.serial: %d serial cases after %d others" % (len(serial), len(other)))
PY
