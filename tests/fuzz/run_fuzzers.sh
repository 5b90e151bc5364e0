#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang under AddressSanitizer and UBSan (every
# undefined-behaviour check fatal) and runs each for a while on its seed corpus. CI runs it
# (.ci/run) with a short time per target; run it longer by hand to search harder:
#
#   tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET [BUILD_DIR]]   (default 45, build-fuzz)
#
# Without BUILD_DIR it configures build-fuzz (clang, optimised). With one, it builds the targets
# in that tree, which must already be configured with clang and -fsanitize=fuzzer-no-link (the
# asan preset is: CI fuzzes from build-asan rather than building everything a second time).
#
# The GUI's file readers (workspace, autosave, exercises, progress, settings) need the ui model
# library, so the GUI is configured too; only the fuzz targets and what they link are built.
#
# SLICESCOPE_FUZZ_SEED and SLICESCOPE_FUZZ_RUNS fix libFuzzer's seed and the number of inputs
# per target (SECONDS stays an upper bound): CI sets both, so that it tries the same inputs on
# every run. By hand, leave them unset: a random seed searches somewhere new each time.
#
# Needs clang and libFuzzer (Debian 12: clang, libfuzzer-14-dev; packaging/dev.sh installs
# them). New inputs found go to BUILD_DIR/found/<target>, never into the seed corpus; a crash
# stops the script with the failing input saved as BUILD_DIR/crash-<target>-*, to be added to
# tests/fuzz/corpus/<target> together with its fix (see README.md here).
set -euo pipefail

seconds=${1:-45}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"

if [ $# -ge 2 ]; then
  build=$(cd "$2" && pwd)
  grep -q 'fuzzer-no-link' "$build/CMakeCache.txt" ||
    { echo "run_fuzzers.sh: $build is not configured with -fsanitize=fuzzer-no-link" >&2; exit 2; }
else
  build=$top/build-fuzz
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSLICESCOPE_BUILD_GUI=ON -DSLICESCOPE_BUILD_BENCHMARKS=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
fi
targets="request subscript call npy model_onnx model_tflite model_graphdef workspace autosave exercises
  progress settings"
# SLICESCOPE_FUZZ_NO_BUILD=1: the targets are built already (CI builds the whole sanitizer tree
# just before; asking make again costs about 15 s of checking the twelve targets' dependencies).
if [ -z "${SLICESCOPE_FUZZ_NO_BUILD:-}" ]; then
  cmake --build "$build" --parallel 2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
fi

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The GUI readers' scratch files stay in the build tree.
export TMPDIR=$build/tmp
mkdir -p "$TMPDIR"
fixed=()
[ -n "${SLICESCOPE_FUZZ_SEED:-}" ] && fixed+=(-seed="$SLICESCOPE_FUZZ_SEED")
[ -n "${SLICESCOPE_FUZZ_RUNS:-}" ] && fixed+=(-runs="$SLICESCOPE_FUZZ_RUNS")
# Two targets at a time, one per core: a target spends much of its time waiting on children it
# starts (the ONNX checker) or on its files, so one at a time left a core idle. The next target
# starts as soon as one of the two ends (their times differ from 2 to 20 s). Each target's
# output goes to BUILD_DIR/fuzz-logs/<target>.log and is printed when it ends.
fuzz() {
  local target=$1
  mkdir -p "$build/found/$target"
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
    -timeout=20 -print_final_stats=1 "${fixed[@]}" -artifact_prefix="$build/crash-$target-" \
    "$build/found/$target" "tests/fuzz/corpus/$target" >"$build/fuzz-logs/$target.log" 2>&1
}
mkdir -p "$build/fuzz-logs"
declare -A running=() # pid -> target
status=0
# Waits for one running target to end and prints its log; a failure is kept in $status.
finish_one() {
  local pid result=0
  wait -n -p pid "${!running[@]}" || result=$?
  echo "fuzz_${running[$pid]}: ${seconds}s, exit $result"
  cat "$build/fuzz-logs/${running[$pid]}.log"
  unset "running[$pid]"
  [ "$result" -eq 0 ] || status=$result
}
for target in $targets; do
  [ ${#running[@]} -lt 2 ] || finish_one
  # A crash stops the script once the other running target has ended, its input saved as
  # crash-<target>-*.
  [ "$status" -eq 0 ] || break
  fuzz "$target" &
  running[$!]=$target
done
while [ ${#running[@]} -gt 0 ]; do
  finish_one
done
exit "$status"
