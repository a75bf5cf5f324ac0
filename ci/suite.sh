#!/usr/bin/env bash
# README command 1: set-up, build, run the whole suite on the default device
# and write build/results/results.{json,xml,csv}.  Extra arguments go to
# `vkqs run` (e.g. --device nvidia --validation).  Exit code: vkqs's.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/build.sh
mkdir -p build/results
exec build/vkqs run --json build/results/results.json --junit build/results/results.xml \
	--csv build/results/results.csv "$@"
