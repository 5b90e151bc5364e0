#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""SliceScope's reading of ONNX nodes against ONNX Runtime's (a second, independent reference).

Builds random one-node models with python3-onnx (Slice with every kind of bound, Gather with
negative indices, Transpose), evaluates each with `slicescope-cli model FILE --json | run` and
with ONNX Runtime (onnx_runtime_run.js under node), on x = int64 arange(shape), and compares
shapes and values. One difference is known and named rather than hidden: an explicit end of
INT_MAX or INT64_MAX with a negative step, which the ONNX spec clamps to dim - 1 (nothing after
the start is read) and ONNX Runtime reads as "through index 0". Each such case must equal
SliceScope's answer with that end replaced by INT64_MIN (the spec's "through index 0"), and
differ from the spec's reading; any other difference fails.

usage: onnx_runtime_compare.py SLICESCOPE_CLI NODE_MODULES_DIR [CASES] [SEED]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

INT64_MAX = 2**63 - 1
INT64_MIN = -2**63
INT32_MAX = 2**31 - 1
SPECIAL = [INT64_MAX, INT64_MIN, INT32_MAX, -2**31]


def bound(rng):
    return rng.choice(SPECIAL) if rng.random() < 0.2 else rng.randint(-8, 8)


def model(node, inits, shape, path, out_rank):
    # onnx 1.12's checker wants the output's rank; its sizes are left unknown.
    graph = helper.make_graph(
        [node], "compare", [helper.make_tensor_value_info("x", TensorProto.INT64, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [None] * out_rank)],
        initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8  # what ONNX Runtime reads
    onnx.checker.check_model(m)
    onnx.save(m, path)


def ints(name, values, scalar=False):
    return helper.make_tensor(name, TensorProto.INT64, [] if scalar else [len(values)], values)


def slice_case(rng, name, path):
    rank = rng.randint(1, 3)
    shape = [rng.choice([0, 1, 2, 3, 4, 5, 6]) if rng.random() < 0.1 else rng.randint(1, 6)
             for _ in range(rank)]
    axes = rng.sample(range(rank), rng.randint(1, rank))
    axes = [a - rank if rng.random() < 0.3 else a for a in axes]
    starts = [bound(rng) for _ in axes]
    ends = [bound(rng) for _ in axes]
    steps = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in axes]
    return shape, dict(starts=starts, ends=ends, axes=axes, steps=steps)


def write_slice(args, shape, name, path):
    inits = [ints(f"{name}_{k}", args[k]) for k in ("starts", "ends", "axes", "steps")]
    node = helper.make_node("Slice", ["x"] + [i.name for i in inits], ["y"], name=name)
    model(node, inits, shape, path, len(shape))


def gather_case(rng, name, path):
    rank = rng.randint(1, 3)
    shape = [rng.randint(1, 5) for _ in range(rank)]
    axis = rng.randint(-rank, rank - 1)
    d = shape[axis]
    ishape = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
    count = 1
    for s in ishape:
        count *= s
    values = [rng.randint(-d, d - 1) for _ in range(count)]
    init = helper.make_tensor(f"{name}_i", TensorProto.INT64, ishape, values)
    node = helper.make_node("Gather", ["x", init.name], ["y"], name=name, axis=axis)
    model(node, [init], shape, path, rank - 1 + len(ishape))
    return shape


def transpose_case(rng, name, path):
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 4) for _ in range(rank)]
    kwargs = {}
    if rng.random() < 0.8:
        perm = list(range(rank))
        rng.shuffle(perm)
        kwargs["perm"] = perm
    node = helper.make_node("Transpose", ["x"], ["y"], name=name, **kwargs)
    model(node, [], shape, path, rank)
    return shape


def slicescope(cli, paths):
    lines = []
    for p in paths:
        out = subprocess.run([cli, "model", p, "--json"], capture_output=True, text=True,
                             check=True)
        lines += [line for line in out.stdout.splitlines() if line.strip()]
    ran = subprocess.run([cli, "run"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True)
    answers = {}
    for line in ran.stdout.splitlines():
        r = json.loads(line)
        if r.get("ok"):
            o = r["outputs"][0]
            answers[r["id"]] = {"shape": o["shape"], "data": [int(v) for v in o["data"]]}
        else:
            answers[r["id"]] = {"error": r["error"]["message"]}
    return answers


def runtime(node_modules, cases, tmp):
    manifest = os.path.join(tmp, "manifest.json")
    with open(manifest, "w") as f:
        json.dump([{"path": p, "shape": s} for p, s in cases], f)
    env = dict(os.environ, NODE_PATH=node_modules)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx_runtime_run.js")
    out = subprocess.run(["node", script, manifest], capture_output=True, text=True, env=env,
                         check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def same(a, b):
    if "error" in a or "error" in b:
        return "error" in a and "error" in b
    return a["shape"] == b["shape"] and a["data"] == b["data"]


def main():
    cli, node_modules = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 19)
    tmp = tempfile.mkdtemp(prefix="slicescope-ort-")
    cases = []  # (name, op, path, shape, variant path or None)
    for k in range(total):
        name = f"case{k}"
        path = os.path.join(tmp, name + ".onnx")
        op = ["Slice", "Slice", "Gather", "Transpose"][k % 4]
        variant = None
        if op == "Slice":
            shape, args = slice_case(rng, name, path)
            write_slice(args, shape, name, path)
            # The known difference: an explicit INT_MAX / INT64_MAX end with a negative step.
            if any(e in (INT32_MAX, INT64_MAX) and s < 0
                   for e, s in zip(args["ends"], args["steps"])):
                moved = dict(args, ends=[INT64_MIN if e in (INT32_MAX, INT64_MAX) and s < 0
                                         else e for e, s in zip(args["ends"], args["steps"])])
                variant = os.path.join(tmp, name + "_through_0.onnx")
                write_slice(moved, shape, name + "_through_0", variant)
        elif op == "Gather":
            shape = gather_case(rng, name, path)
        else:
            shape = transpose_case(rng, name, path)
        cases.append((name, op, path, shape, variant))
    ours = slicescope(cli, [c[2] for c in cases] + [c[4] for c in cases if c[4]])
    theirs = runtime(node_modules, [(c[2], c[3]) for c in cases], tmp)
    counts = {"cases": total, "agree": 0, "both_refuse": 0, "known_difference": 0,
              "known_but_agree": 0, "differ": 0}
    by_op = {}
    failures = []
    for (name, op, path, shape, variant), ort in zip(cases, theirs):
        mine = ours[name]
        by_op.setdefault(op, 0)
        by_op[op] += 1
        if variant and not same(mine, ort):
            if same(ours[name + "_through_0"], ort):
                counts["known_difference"] += 1
                continue
        if same(mine, ort):
            counts["agree"] += 1
            if "error" in mine:
                counts["both_refuse"] += 1
            if variant:
                counts["known_but_agree"] += 1
            continue
        counts["differ"] += 1
        failures.append(f"{name} ({op}, x of shape {shape}): SliceScope {mine}, "
                        f"ONNX Runtime {ort}")
    counts["by_op"] = by_op
    print(json.dumps(counts))
    for f in failures:
        print("DIFFER", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
