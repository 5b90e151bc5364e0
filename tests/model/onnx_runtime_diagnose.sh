#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ONNX Runtime makes the wrong outputs that `slicescope-cli diagnose` must explain
# (onnx_runtime_diagnose.py): right and deliberately broken ONNX Slice / Unsqueeze / Transpose
# chains on CASES random subscripts. The runtime comes from reference_runtimes.sh, as for
# onnx_runtime_compare. ctest runs it as onnx_runtime_diagnose.
#
#   tests/model/onnx_runtime_diagnose.sh BUILD_DIR [CASES]   (default 210)
#
# SLICESCOPE_SWEEP_EVERY=N runs the first CASES/N cases only, as onnx_runtime_compare does (the
# sanitizer build sets it), but at least 42 of them: six of each of the seven classes.
set -euo pipefail
build=$(cd "$1" && pwd)
all=${2:-210}
cases=$(( all / ${SLICESCOPE_SWEEP_EVERY:-1} ))
(( cases >= 42 )) || cases=$(( all < 42 ? all : 42 ))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
npm_dir=${SLICESCOPE_NPM_DIR:-$build/npm}
sh "$here/reference_runtimes.sh" "$npm_dir"
/usr/bin/python3 "$here/onnx_runtime_diagnose.py" "$build/app/slicescope-cli" \
  "$npm_dir/node_modules" "$cases"
