#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# slicescope-cli equivalent against a run of a real ONNX file's nodes: tensorflow-onnx's
# Unsqueeze + Slice for x[..., None, None] (issue #1849) is told apart from the subscript, the
# corrected file is equivalent, and a run that is not a chain is refused.
# usage: model_chain_equivalent.sh BUILD_DIR
set -u
cli="$1/app/slicescope-cli"
here="$(cd "$(dirname "$0")" && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 "$here/make_unsqueeze_chain.py" "$dir" || exit 1
fail=0
expect() { # expect STATUS PATTERN -- command...
    local status="$1" pattern="$2"
    shift 3
    local out
    out="$("$@" 2>&1)"
    local got=$?
    if [ "$got" != "$status" ] || ! grep -qF -- "$pattern" <<<"$out"; then
        echo "FAIL: $* -> exit $got, wanted $status and '$pattern':"
        echo "$out"
        fail=1
    else
        echo "ok: $*"
    fi
}
# The model lists Unsqueeze, Slice, Transpose (Identity is not of the slicing family).
expect 1 "B: nodes 1-2 of $dir/wrong.onnx (Unsqueeze, Slice) -> (2, 1, 1, 3)" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/wrong.onnx" --nodes 1-2 --shape 2,3
expect 1 "the outputs differ in shape: A gives (2, 3, 1, 1), B gives" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/wrong.onnx" --nodes 1-2 --shape 2,3
expect 0 "equivalent for x of shape (2, 3): both read the same 6 elements" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/right.onnx" --nodes 1-2 --shape 2,3
expect 0 '"equivalent":true' -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/right.onnx" --nodes 1-2 --shape 2,3 --json
# With the Transpose, against a chain typed in JSON; and against another transpose.
expect 0 "equivalent for x of shape (2, 3)" -- \
    "$cli" equivalent '[{"op": "getitem", "attrs": {"expr": "x[..., None, None]"}},
                        {"op": "transpose", "attrs": {"perm": [3, 2, 1, 0]}}]' \
    --model "$dir/right.onnx" --nodes 1-3 --shape 2,3
expect 1 "at output [0, 0, 0, 1] A reads x[0, 1] and B reads x[1, 0]" -- \
    "$cli" equivalent '[{"op": "getitem", "attrs": {"expr": "x[..., None, None]"}},
                        {"op": "transpose", "attrs": {"perm": [2, 3, 0, 1]}}]' \
    --model "$dir/right.onnx" --nodes 1-3 --shape 2,2
# A Gather whose indices are a constant of the file is a step too.
expect 0 "equivalent for x of shape (2, 3)" -- \
    "$cli" equivalent 'x[None, :, ::-1]' --model "$dir/reversed.onnx" --nodes 1-2 --shape 2,3
expect 1 "at output [0, 0, 1] A reads x[0, 1] and B reads x[0, 0]" -- \
    "$cli" equivalent 'x[None, :, ::-1]' --model "$dir/shuffled.onnx" --nodes 1-2 --shape 2,3
expect 2 "--nodes takes FIRST-LAST" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/right.onnx" --nodes 3-1 --shape 2,3
expect 1 "has 3 slicing nodes of 4; --nodes 2-4 asks for more" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/right.onnx" --nodes 2-4 --shape 2,3
expect 2 "--model FILE and --nodes FIRST-LAST go together" -- \
    "$cli" equivalent 'x[..., None, None]' --model "$dir/right.onnx" --shape 2,3
exit $fail
