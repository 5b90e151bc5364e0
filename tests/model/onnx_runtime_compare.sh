#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ONNX Runtime as a second reference for SliceScope's ONNX reading (onnx_runtime_compare.py):
# onnxruntime-node from $SLICESCOPE_NPM_DIR (default BUILD/npm; reference_runtimes.sh installs it
# there, once), on CASES random
# Slice / Gather / Transpose nodes. ctest runs it as onnx_runtime_compare.
#
#   tests/model/onnx_runtime_compare.sh BUILD_DIR [CASES]   (default 300)
#
# SLICESCOPE_SWEEP_EVERY=N runs the first CASES/N cases only (same seed, so the same first cases):
# the sanitizer build sets it, as for onnx_testdata_sweep, since there every CLI process costs
# about half a second; the Release run compares all of them.
set -euo pipefail
build=$(cd "$1" && pwd)
cases=$(( ${2:-300} / ${SLICESCOPE_SWEEP_EVERY:-1} ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
npm_dir=${SLICESCOPE_NPM_DIR:-$build/npm}
sh "$here/reference_runtimes.sh" "$npm_dir"
/usr/bin/python3 "$here/onnx_runtime_compare.py" "$build/app/slicescope-cli" \
  "$npm_dir/node_modules" "$cases"
