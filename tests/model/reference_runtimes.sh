#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the reference runtimes the model tests compare SliceScope with, from npm, pinned, into
# DIR/node_modules: ONNX Runtime (onnxruntime-node: its Linux CPU binary ships inside the package;
# --ignore-scripts skips the install script, which only fetches optional GPU parts) and LiteRT.js
# (@litertjs/core: TFLite's runtime as WebAssembly). packaging/dev.sh runs it into build/npm before
# the tests; a test that finds them missing runs it too. Does nothing when both are there.
#
#   tests/model/reference_runtimes.sh DIR
set -eu
dir=$1
onnxruntime=1.30.0
litert=2.5.3
installed() { grep -qs "\"version\": \"$2\"" "$dir/node_modules/$1/package.json"; }
if installed onnxruntime-node "$onnxruntime" && installed @litertjs/core "$litert"; then
  exit 0
fi
mkdir -p "$dir"
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --loglevel=error \
  "onnxruntime-node@$onnxruntime" "@litertjs/core@$litert"
