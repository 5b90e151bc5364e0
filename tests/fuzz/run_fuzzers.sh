#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang under AddressSanitizer and UBSan (every
# undefined-behaviour check fatal) and runs each for a while on its seed corpus. CI runs it
# (.ci/run) with a short time per target; run it longer by hand to search harder:
#
#   tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET]   (default 45)
#
# Needs clang and libFuzzer (Debian 12: clang, libfuzzer-14-dev; packaging/dev.sh installs
# them). New inputs found go to build-fuzz/found/<target>, never into the seed corpus; a crash
# stops the script with the failing input saved as build-fuzz/crash-<target>-*, to be added to
# tests/fuzz/corpus/<target> together with its fix (see README.md here).
set -euo pipefail

seconds=${1:-45}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$top/build-fuzz
cd "$top"

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSLICESCOPE_BUILD_GUI=OFF -DSLICESCOPE_BUILD_BENCHMARKS=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake --build "$build" --target fuzz_request fuzz_subscript fuzz_npy fuzz_model_onnx fuzz_model_tflite fuzz_model_graphdef

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for target in request subscript npy model_onnx model_tflite model_graphdef; do
  found=$build/found/$target
  mkdir -p "$found"
  echo "fuzz_$target: ${seconds}s"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
    -timeout=20 -print_final_stats=1 -artifact_prefix="$build/crash-$target-" \
    "$found" "tests/fuzz/corpus/$target"
done
