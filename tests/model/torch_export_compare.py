#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Models from a real converter: PyTorch's torch.onnx.export, as a user debugging a spec has them.

Small PyTorch programs that index the way people do (basic slicing with steps and negative
bounds, x[..., None, ::2], x[:, -1], flip, narrow, select, index_select, gather, chunk, split,
unbind, repeat, expand, F.pad in each mode, a constant boolean mask, integer-array indexing) are
exported at the opsets people use, each into a node test's layout: DIR/model.onnx and
DIR/test_data_set_0 with x (a float32 arange) as input_0.pb and torch's own results as
output_K.pb. `slicescope-cli model DIR --check` runs the file's slicing nodes on x and compares
each graph output with torch's: every one must be computed and agree. The exporter writes shape
computations around the slicing nodes even for a static input (chunk: Shape -> Gather -> Add ->
Div -> Mul into Slice's ends; F.pad: ConstantOfShape -> Concat -> Reshape -> Slice -> Transpose
-> Cast into Pad's pads), which the reader folds.

ONNX Runtime runs the same files on the same x as the second reference: its outputs must equal
torch's. One converter bug is known and must show as such: PyTorch 1.13 exports F.pad(mode=
"circular") with unequal pads as a Concat of the wrong slices (its left pad is as wide as the
right one should be), so SliceScope and ONNX Runtime both differ from torch there, in the same
way. Any other difference fails.

usage: torch_export_compare.py SLICESCOPE_CLI NPM_DIR
(NPM_DIR: where tests/model/reference_runtimes.sh installs ONNX Runtime; run first)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))

X = (2, 3, 4)


def circular(x):
    return F.pad(x, (1, 2), mode="circular")


# name: (program, opsets, dynamic axes of x or None)
CASES = {
    "steps_and_negative_bounds": (lambda x: x[1:, ::2, -3:-1], (11, 13, 17), None),
    "steps_dynamic": (lambda x: x[1:, ::2, -3:-1], (13,), {0: "batch", 2: "w"}),
    "ellipsis_new_axis_step": (lambda x: x[..., None, ::2], (11, 17), None),
    "last_index": (lambda x: x[:, -1], (9, 13), None),
    "flip": (lambda x: torch.flip(x, [1, 2]), (11,), None),
    "narrow": (lambda x: x.narrow(2, 1, 2), (9, 13), None),
    "select": (lambda x: x.select(1, 2), (13,), None),
    "index_select": (lambda x: torch.index_select(x, 2, torch.tensor([3, 0, 1])), (13,), None),
    "gather": (lambda x: torch.gather(x, 1, torch.tensor([[[0, 1, 2, 0]], [[2, 2, 1, 0]]])),
               (11,), None),
    "chunk": (lambda x: torch.chunk(x, 2, dim=2), (9, 11, 13, 17), None),
    "split": (lambda x: torch.split(x, [1, 3], dim=2), (13,), None),
    "unbind": (lambda x: torch.unbind(x, 1), (13,), None),
    "repeat": (lambda x: x.repeat(2, 1, 2), (13,), None),
    "expand": (lambda x: x[:, :1].expand(2, 3, 4), (11, 17), None),
    "pad_constant": (lambda x: F.pad(x, (1, 2, 0, 1), value=-1.0), (9, 11, 13, 17), None),
    "pad_reflect": (lambda x: F.pad(x, (1, 2), mode="reflect"), (9, 13), None),
    "pad_replicate": (lambda x: F.pad(x, (1, 2), mode="replicate"), (9, 13), None),
    "pad_circular": (circular, (13,), None),
    "constant_bool_mask": (lambda x: x[:, torch.tensor([True, False, True])], (13,), None),
    "integer_array": (lambda x: x[:, torch.tensor([2, 0, 2])], (13,), None),
}

# The converter's own bug: its file computes something else than the program it was given.
CONVERTER_BUGS = {"pad_circular"}

# The CLI's line for each graph output of a node test: "'NAME' (output_K.pb): STATE".
TEST_DATA_LINE = re.compile(r"^  '(.*)' \(output_\d+\.pb\): (agrees|differs|not computed)")


class Program(torch.nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, x):
        return self.f(x)


def write_pb(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def export(root, name, f, opset, dynamic):
    """Exports one case into root/NAME_oOPSET/ as a node test; returns its dir and torch's
    outputs."""
    x = torch.arange(float(np.prod(X)), dtype=torch.float32).reshape(X)
    with torch.no_grad():
        result = f(x)
    outputs = result if isinstance(result, tuple) else (result,)
    names = [f"y{k}" for k in range(len(outputs))]
    case = os.path.join(root, f"{name}_o{opset}")
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Program(f), (x,), os.path.join(case, "model.onnx"),
                          opset_version=opset, input_names=["x"], output_names=names,
                          dynamic_axes={"x": dynamic} if dynamic else None)
    write_pb(os.path.join(data, "input_0.pb"), x.numpy(), "x")
    for k, out in enumerate(outputs):
        write_pb(os.path.join(data, f"output_{k}.pb"), out.numpy(), names[k])
    return case, [o.numpy() for o in outputs]


def slicescope_states(cli, case):
    """Per graph output, 'agrees', 'differs' or 'not computed', and the CLI's whole text."""
    out = subprocess.run([cli, "model", case, "--check"], capture_output=True, text=True)
    states = {m.group(1): m.group(2) for m in map(TEST_DATA_LINE.match, out.stdout.splitlines())
              if m}
    return states, out.stdout + out.stderr


def slicescope_values(cli, case):
    """The graph outputs SliceScope computes on x (`model --json` with the test data, through
    `run`), by name."""
    data = os.path.join(case, "test_data_set_0")
    listed = subprocess.run([cli, "model", case, "--json", "--test-data", data],
                            capture_output=True, text=True, check=True)
    lines = [line for line in listed.stdout.splitlines() if line.strip()]
    ran = subprocess.run([cli, "run"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True)
    model = onnx.load(os.path.join(case, "model.onnx"))
    made_by = {n.name: list(n.output) for n in model.graph.node}
    values = {}
    for line in ran.stdout.splitlines():
        response = json.loads(line)
        if response.get("ok"):
            for out_name, out in zip(made_by.get(response["id"], []), response["outputs"]):
                values[out_name] = out
    return values


def runtime_outputs(npm_dir, cases, tmp):
    manifest = os.path.join(tmp, "manifest.json")
    with open(manifest, "w") as f:
        json.dump([{"path": os.path.join(c, "model.onnx"), "shape": list(X), "dtype": "float32"}
                   for c in cases], f)
    env = dict(os.environ, NODE_PATH=os.path.join(npm_dir, "node_modules"))
    out = subprocess.run(["node", os.path.join(HERE, "onnx_runtime_run.js"), manifest],
                         capture_output=True, text=True, env=env, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def same(ort_output, want):
    return (list(ort_output["shape"]) == list(want.shape) and
            np.array_equal(np.array(ort_output["data"], dtype=want.dtype).reshape(want.shape),
                           want))


def main():
    cli, npm_dir = sys.argv[1], sys.argv[2]
    subprocess.run(["sh", os.path.join(HERE, "reference_runtimes.sh"), npm_dir], check=True)
    tmp = tempfile.mkdtemp(prefix="slicescope-torch-")
    cases = []  # (name, case dir, torch outputs)
    for name, (f, opsets, dynamic) in CASES.items():
        for opset in opsets:
            case, outputs = export(tmp, name, f, opset, dynamic)
            cases.append((name, case, outputs))
    failures = []
    counts = {"files": len(cases), "outputs": 0, "agree": 0, "converter_bugs_seen": 0}
    ort = runtime_outputs(npm_dir, [c[1] for c in cases], tmp)
    for (name, case, outputs), theirs in zip(cases, ort):
        label = os.path.basename(case)
        states, text = slicescope_states(cli, case)
        if "error" in theirs:
            failures.append(f"{label}: ONNX Runtime refuses the file: {theirs['error']}")
            continue
        bug = name in CONVERTER_BUGS
        for k, want in enumerate(outputs):
            counts["outputs"] += 1
            ours = states.get(f"y{k}")
            ort_agrees = same(theirs["outputs"][k], want)
            if bug:
                # The file is wrong, not the readers: both differ from torch, alike.
                computed = slicescope_values(cli, case).get(f"y{k}")
                runtime = theirs["outputs"][k]
                if (ours == "differs" and not ort_agrees and computed and
                        computed["shape"] == runtime["shape"] and
                        [float(v) for v in computed["data"]] == runtime["data"]):
                    counts["converter_bugs_seen"] += 1
                else:
                    failures.append(f"{label} y{k}: the converter's bug should show: SliceScope "
                                    f"{ours} ({computed}), ONNX Runtime {runtime}")
            elif ours == "agrees" and ort_agrees:
                counts["agree"] += 1
            else:
                failures.append(f"{label} y{k}: SliceScope {ours}, ONNX Runtime agrees with "
                                f"torch: {ort_agrees}\n{text}")
    print(json.dumps(counts))
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
