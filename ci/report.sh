#!/usr/bin/env bash
# The committed results/ as one comparison page and a Markdown summary:
# build/report/index.html and build/report/summary.md (tools/report.py).
# With --screenshot FILE, also a PNG of the page from headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
runs=(results/refdevice.json results/refdevice-tiler.json results/lavapipe-mesa-22.3.6.json
      results/lavapipe-mesa-25.0.7.json results/swiftshader-chromium-156.0.8078.108.json
      results/nvidia-h100-580.159.04.json results/nvidia-h200-580.159.04-family.json
      results/bench-refdevice.json results/bench-refdevice-tiler.json
      results/bench-lavapipe-mesa-22.3.6.json results/bench-nvidia-h100-580.159.04-run1.json
      results/bench-nvidia-h200-580.159.04-run1.json)
mkdir -p build/report
python3 tools/report.py "${runs[@]}" --html build/report/index.html --md build/report/summary.md
echo "build/report/index.html, build/report/summary.md"
if [ "${1:-}" = --screenshot ]; then
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1800 \
		--screenshot="$2" "file://$PWD/build/report/index.html" 2>/dev/null
	echo "$2"
fi
