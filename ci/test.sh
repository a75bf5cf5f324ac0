#!/usr/bin/env bash
# README command 2: set-up, build, and every test (ctest): framework unit
# tests, CLI errors, the runner's crash/timeout handling, and the suite on
# lavapipe under the validation layer.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
