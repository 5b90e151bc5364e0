#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the generated .tflite files in LiteRT.js (TFLite's runtime as WebAssembly) under Node.js.
#
#   tflite_litert_run.sh LITERT_DIR FILES_DIR
#
# Installs @litertjs/core (pinned) into LITERT_DIR with npm the first time, then writes
# FILES_DIR/litert.json from FILES_DIR/manifest.json.
set -eu
litert=$1
files=$2
here=$(cd "$(dirname "$0")" && pwd)
version=2.5.3
if [ ! -f "$litert/node_modules/@litertjs/core/package.json" ] ||
   ! grep -q "\"version\": \"$version\"" "$litert/node_modules/@litertjs/core/package.json"; then
  mkdir -p "$litert"
  npm install --prefix "$litert" --no-audit --no-fund --loglevel=error "@litertjs/core@$version"
fi
# The runtime logs INFO lines on stderr for every model; keep only what is not INFO.
node "$here/tflite_litert_run.mjs" "$litert" "$files/manifest.json" "$files/litert.json" 2>"$files/litert.log"
grep -v '^INFO:' "$files/litert.log" >&2 || true
