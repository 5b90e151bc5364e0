#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ONNX Runtime as a second reference for SliceScope's ONNX reading (onnx_runtime_compare.py):
# installs onnxruntime-node from npm into BUILD/ort once (--ignore-scripts: its Linux CPU binary
# ships inside the package; the install script only fetches optional GPU parts), then compares
# CASES random Slice / Gather / Transpose nodes. CI runs it (.ci/run); it needs the network the
# first time.
#
#   tests/model/onnx_runtime_compare.sh BUILD_DIR [CASES]   (default 300)
set -euo pipefail
build=$(cd "$1" && pwd)
cases=${2:-300}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ ! -d "$build/ort/node_modules/onnxruntime-node" ]; then
  mkdir -p "$build/ort"
  (cd "$build/ort" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node)
fi
/usr/bin/python3 "$here/onnx_runtime_compare.py" "$build/app/slicescope-cli" \
  "$build/ort/node_modules" "$cases"
