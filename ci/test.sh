#!/usr/bin/env bash
# README command 2: set-up, build, and every test:
# 1. ctest on the normal build: framework unit tests, CLI errors, the runner
#    against self-test cases that crash and hang inside the driver, the suite
#    on lavapipe and on the reference device under the validation layer,
#    vulkaninfo on the reference device, every refdevice variation;
# 2. Release and Debug builds with gcc and with clang, warnings as errors
#    (each compiler warns differently per optimisation level), and their
#    unit and CLI tests;
# 3. the reference device built with ASan+UBSan runs the whole suite on both
#    architectures;
# 4. the SPIR-V fuzz target replays its corpus, then fuzzes for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ci/build.sh
# CI insists on a current Khronos layer: suite.validation_current fails
# rather than skips when the machine's newest layer predates an extension
# vkqs uses (tests/validation_current.sh).
if [ "${CI:-}" = true ]; then export VKQS_REQUIRE_CURRENT_LAYER=1; fi
ctest --test-dir build --output-on-failure -j"$jobs"

for cc in gcc clang; do
	for type in Release Debug; do
		echo "== $cc $type build, warnings as errors"
		dir="build-$cc-$type"
		cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="$type" \
			-DVKQS_WERROR=ON >/dev/null
		cmake --build "$dir" -j"$jobs" >/dev/null
		ctest --test-dir "$dir" --output-on-failure -j"$jobs" -L 'unit|cli'
	done
done

echo "== ASan+UBSan build: the suite on the reference device"
cmake -S . -B build-asan -DVKQS_WERROR=ON -DVKQS_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
# Leaks of the loader and the validation layer (not built with ASan) are
# theirs; ours are found in the refdevice's own unit tests and fuzz runs.
# The variations (26 whole-suite runs) are left to the normal build: under
# ASan they took 6 of CI's 20 minutes; the suite on both architectures runs.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ctest --test-dir build-asan --output-on-failure -j"$jobs" -L refdevice -E 'vulkaninfo|variations'

echo "== SPIR-V fuzz target"
build/refdevice/rd_fuzz_spirv_replay refdevice/fuzz/corpus
if cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DVKQS_FUZZ=ON >/dev/null 2>&1 &&
	cmake --build build-fuzz -j"$jobs" --target rd_fuzz_spirv >/dev/null 2>&1; then
	corpus=$(mktemp -d)
	cp refdevice/fuzz/corpus/* "$corpus"/
	build-fuzz/refdevice/rd_fuzz_spirv -max_total_time="${VKQS_FUZZ_SECONDS:-60}" \
		-print_final_stats=1 "$corpus" 2>&1 | tail -n 12
else
	echo "no clang with libFuzzer: ran the corpus replay only"
fi
