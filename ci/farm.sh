#!/usr/bin/env bash
# A farm of runners as one run (docs/ci.md): each runner runs its shard,
# one job merges them, compares the merged run with a baseline and writes
# the page.  GitLab CI's `parallel:` sets CI_NODE_INDEX (1-based) and
# CI_NODE_TOTAL.
#
#   ci/farm.sh shard   run shard $CI_NODE_INDEX/$CI_NODE_TOTAL into
#                      $VKQS_OUT/shard-$CI_NODE_INDEX.{json,xml}
#   ci/farm.sh merge   $VKQS_OUT/shard-*.json -> merged.json; with
#                      $VKQS_BASELINE set, exit 1 on regressions
#                      (regressions.md); report.html and report.md
#
# VKQS_DEVICE (default refdevice), VKQS_EXPECTATIONS (a prefix such as
# ci/nvidia; none by default), VKQS_OUT (default farm-out), VKQS_VALIDATION=1
# for --validation.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${VKQS_OUT:-farm-out}
mkdir -p "$out"
case ${1:-} in
shard)
	: "${CI_NODE_INDEX:?set by GitLab CI parallel:}" "${CI_NODE_TOTAL:?}"
	args=(--device "${VKQS_DEVICE:-refdevice}" --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"
	      --json "$out/shard-$CI_NODE_INDEX.json" --junit "$out/shard-$CI_NODE_INDEX.xml")
	[ -n "${VKQS_EXPECTATIONS:-}" ] && args+=(--expectations "$VKQS_EXPECTATIONS")
	[ "${VKQS_VALIDATION:-0}" = 1 ] && args+=(--validation)
	# Unexpected results are judged on the merged run; a set-up error (2)
	# or an interrupted run fails the job here.
	rc=0
	build/vkqs run "${args[@]}" || rc=$?
	[ "$rc" -le 1 ]
	;;
merge)
	python3 tools/merge.py "$out/merged.json" "$out"/shard-*.json
	python3 tools/report.py "$out/merged.json" --html "$out/report.html" --md "$out/report.md"
	if [ -n "${VKQS_BASELINE:-}" ]; then
		python3 tools/report.py "$out/merged.json" --baseline "$VKQS_BASELINE" \
			--md "$out/regressions.md"
	fi
	;;
*)
	echo "usage: ci/farm.sh shard|merge" >&2
	exit 2
	;;
esac
