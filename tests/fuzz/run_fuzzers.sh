#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang under AddressSanitizer and UBSan (every
# undefined-behaviour check fatal) and runs each for a while on its seed corpus. CI runs it
# (.ci/run) with a short time per target; run it longer by hand to search harder:
#
#   tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET]   (default 45)
#
# The GUI's file readers (workspace, autosave, exercises, progress, settings) need the ui model
# library, so the GUI is configured too; only the fuzz targets and what they link are built.
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
  -DSLICESCOPE_BUILD_GUI=ON -DSLICESCOPE_BUILD_BENCHMARKS=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
targets="request subscript npy model_onnx model_tflite model_graphdef workspace autosave exercises
  progress settings"
cmake --build "$build" --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The GUI readers' scratch files stay in the build tree.
export TMPDIR=$build/tmp
mkdir -p "$TMPDIR"
for target in $targets; do
  found=$build/found/$target
  mkdir -p "$found"
  echo "fuzz_$target: ${seconds}s"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
    -timeout=20 -print_final_stats=1 -artifact_prefix="$build/crash-$target-" \
    "$found" "tests/fuzz/corpus/$target"
done
