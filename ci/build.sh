#!/usr/bin/env bash
# Set-up + configure + build into build/ (binary build/vkqs).  Warnings are
# errors here, as in CI; pass -DVKQS_SANITIZE=ON etc. as arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
cmake -S . -B build -DVKQS_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
