#!/usr/bin/env bash
# Regenerates the suite's mutation score: every refdevice fault against the
# areas it touches, every legal variation against the whole suite on both
# architectures (tools/mutation.py) -> docs/mutation.md, results/mutation.json.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/build.sh >/dev/null
python3 tools/mutation.py --json results/mutation.json --md docs/mutation.md
