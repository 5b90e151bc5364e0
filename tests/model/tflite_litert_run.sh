#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the generated .tflite files in LiteRT.js (TFLite's runtime as WebAssembly) under Node.js.
#
#   tflite_litert_run.sh NPM_DIR FILES_DIR
#
# NPM_DIR holds the reference runtimes (reference_runtimes.sh installs them there, once); writes
# FILES_DIR/litert.json from FILES_DIR/manifest.json.
set -eu
litert=$1
files=$2
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/reference_runtimes.sh" "$litert"
# The runtime logs INFO lines on stderr for every model; keep only what is not INFO.
node "$here/tflite_litert_run.mjs" "$litert" "$files/manifest.json" "$files/litert.json" 2>"$files/litert.log"
grep -v '^INFO:' "$files/litert.log" >&2 || true
