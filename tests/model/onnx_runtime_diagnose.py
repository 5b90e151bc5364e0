#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""SliceScope's diagnosis of wrong outputs that ONNX Runtime really produced.

For random subscripts x[...] (a strided run on every axis, sometimes a new axis) it builds the
ONNX chain a converter would emit (Slice, then Unsqueeze for the new axis) twice: right, and
broken the way the public reports describe (a start off by one, the step's sign flipped, the
steps dropped, an INT_MAX end written as the last index, the Unsqueeze axis moved, a Transpose
appended). ONNX Runtime (onnx_runtime_run.js under node) runs each chain on x = int64
arange(shape); `slicescope-cli diagnose` then explains its output against the subscript. Every
right chain must be called equivalent, and each broken class must be named right in at least
95% of its cases.

usage: onnx_runtime_diagnose.py SLICESCOPE_CLI NODE_MODULES_DIR [CASES] [SEED]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy
import onnx
from onnx import TensorProto, helper

INT64_MIN = -2**63
INT32_MAX = 2**31 - 1
CLASSES = ["equivalent", "begin_off_by_one", "sign_flipped", "strides_dropped",
           "end_read_as_last", "new_axis_moved", "axis_moved"]


def max_count(b, s, size):
    return (size - 1 - b) // s + 1 if s > 0 else b // -s + 1


def random_spec(rng):
    rank = rng.randint(1, 3)
    shape = [rng.randint(4, 7) for _ in range(rank)]
    runs = []
    for d in range(rank):
        while True:
            s = rng.choice([1, 2, 3, -1, -2, -3])
            b = rng.randint(0, shape[d] - 1)
            if max_count(b, s, shape[d]) >= 2:
                break
        runs.append([b, s, rng.randint(2, max_count(b, s, shape[d])), False])
    new_axis = rng.randint(0, rank) if rng.random() < 0.4 else -1
    return shape, runs, new_axis


def subscript(shape, runs, new_axis):
    items = ["None"] if new_axis == 0 else []
    for d, (b, s, n, end_max) in enumerate(runs):
        last = b + s * (n - 1)
        end = "2147483647" if end_max else ("" if last + s < 0 else str(last + (1 if s > 0 else -1)))
        items.append(f"{b}:{end}:{s}")
        if d + 1 == new_axis:
            items.append("None")
    return "x[" + ", ".join(items) + "]"


def onnx_chain(shape, runs, new_axis, transpose, path):
    """Slice over every axis, then Unsqueeze and Transpose where asked."""
    starts, ends, steps = [], [], []
    for b, s, n, end_max in runs:
        last = b + s * (n - 1)
        end = last + (1 if s > 0 else -1)
        starts.append(b)
        ends.append(INT32_MAX if end_max else (INT64_MIN if end < 0 else end))
        steps.append(s)
    inits = [helper.make_tensor(name, TensorProto.INT64, [len(v)], v) for name, v in
             (("starts", starts), ("ends", ends), ("axes", list(range(len(runs)))),
              ("steps", steps))]
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["s"])]
    last, rank = "s", len(runs)
    if new_axis >= 0:
        inits.append(helper.make_tensor("ua", TensorProto.INT64, [1], [new_axis]))
        nodes.append(helper.make_node("Unsqueeze", [last, "ua"], ["u"]))
        last, rank = "u", rank + 1
    if transpose:
        nodes.append(helper.make_node("Transpose", [last], ["t"], perm=transpose))
        last = "t"
    nodes.append(helper.make_node("Identity", [last], ["y"]))
    graph = helper.make_graph(
        nodes, "diagnose", [helper.make_tensor_value_info("x", TensorProto.INT64, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [None] * rank)], initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8  # what ONNX Runtime reads
    onnx.checker.check_model(m)
    onnx.save(m, path)


def broken(kind, shape, runs, new_axis, rng):
    """The runs, new axis and transpose of the broken chain, or None if this spec cannot show it."""
    runs = [list(r) for r in runs]
    k = rng.randrange(len(runs))
    b, s, n, _ = runs[k]
    size = shape[k]
    transpose = None
    if kind == "equivalent":
        pass
    elif kind == "begin_off_by_one":
        nb = b + rng.choice([-1, 1])
        if not 0 <= nb < size:
            return None
        runs[k] = [nb, s, min(n, max_count(nb, s, size)), False]
    elif kind == "sign_flipped":
        if max_count(b, -s, size) < 2:
            return None
        runs[k] = [b, -s, max_count(b, -s, size), False]
    elif kind == "strides_dropped":
        if abs(s) < 2:
            return None
        runs[k] = [b, 1 if s > 0 else -1, abs(s) * (n - 1) + 1, False]
    elif kind == "end_read_as_last":
        if s < 0:
            return None
        n = rng.randint(2, (size - 1) // s + 1)
        b = size - 1 - s * (n - 1)
        runs[k] = [b, s, n - 1, False]
        return runs, new_axis, None, (k, [b, s, n, True])
    elif kind == "new_axis_moved":
        if new_axis < 0:
            return None
        moved = rng.randrange(len(runs))
        new_axis = moved + 1 if moved >= new_axis else moved
    elif kind == "axis_moved":
        if len(runs) < 2 or new_axis >= 0:
            return None
        perm = list(range(len(runs)))
        while perm == sorted(perm):
            rng.shuffle(perm)
        transpose = perm
    return runs, new_axis, transpose, None


def main():
    cli, node_modules = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 210
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 20)
    tmp = tempfile.mkdtemp(prefix="slicescope-ort-diagnose-")
    cases = []  # (kind, shape, expr, path)
    for i in range(total):
        kind = CLASSES[i % len(CLASSES)]
        while True:
            shape, runs, new_axis = random_spec(rng)
            made = broken(kind, shape, runs, new_axis, rng)
            if made:
                break
        actual_runs, actual_new, transpose, expected_change = made
        if expected_change:
            runs[expected_change[0]] = expected_change[1]
        path = os.path.join(tmp, f"case{i}.onnx")
        onnx_chain(shape, actual_runs, actual_new, transpose, path)
        cases.append((kind, shape, subscript(shape, runs, new_axis), path))

    manifest = os.path.join(tmp, "manifest.json")
    with open(manifest, "w") as f:
        json.dump([{"path": c[3], "shape": c[1]} for c in cases], f)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx_runtime_run.js")
    ran = subprocess.run(["node", script, manifest], capture_output=True, text=True,
                         env=dict(os.environ, NODE_PATH=node_modules), check=True)
    outputs = [json.loads(line) for line in ran.stdout.splitlines()]

    found = {k: [0, 0] for k in CLASSES}
    failures = []
    for i, ((kind, shape, expr, path), out) in enumerate(zip(cases, outputs)):
        found[kind][1] += 1
        if "error" in out:
            failures.append(f"case{i} {kind} {expr} on {shape}: ONNX Runtime: {out['error']}")
            continue
        npy = path[:-5] + ".npy"
        numpy.save(npy, numpy.array(out["data"], dtype=numpy.int64).reshape(out["shape"]))
        request = json.dumps({"op": "getitem", "attrs": {"expr": expr}, "inputs": {"input": {
            "dtype": "int64", "shape": shape, "fill": "arange"}}})
        d = subprocess.run([cli, "diagnose", request, "--actual", npy, "--json"],
                           capture_output=True, text=True)
        diagnosis = json.loads(d.stdout) if d.stdout.strip() else {"class": d.stderr.strip()}
        if diagnosis["class"] == kind:
            found[kind][0] += 1
        else:
            failures.append(f"case{i} {kind} {expr} on {shape}: diagnosed {diagnosis['class']}: "
                            f"{diagnosis.get('sentence', '')}")
    print(json.dumps({k: f"{v[0]} of {v[1]}" for k, v in found.items()}))
    for f in failures:
        print("MISSED", f)
    ok = found["equivalent"][0] == found["equivalent"][1] and all(
        v[0] >= 0.95 * v[1] for v in found.values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
