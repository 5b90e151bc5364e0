#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every model.onnx of ONNX's own test data (Debian's libonnx-testdata) through slicescope-cli.

For each file: `slicescope-cli model FILE` must open it, and `model FILE --json` must list every
node of the slicing family that python3-onnx finds in its main graph (as a request line, or on
stderr with the reason it has none). The test's inputs (test_data_set_0/input_*.pb) are given to
the graph's inputs by the CLI itself (`--test-data DIR`), the request lines go through
`slicescope-cli run`, and for every node whose output is a graph output with an expected
output_*.pb (read with onnx.numpy_helper), the computed shape must equal the expected shape and,
where every input of the node had its real value, the values must equal the expected ones. The
CLI's own comparison (`model DIR --check`: each graph output against its output_K.pb) must find
no output that differs, and its counts of outputs that agree are printed. Nodes without a
request must be of the kinds the engine does not model (listed below, each with its reason).

usage: onnx_testdata_sweep.py SLICESCOPE_CLI [DATA_DIR]

SLICESCOPE_SWEEP_EVERY=N takes every Nth file only (in name order): the sanitizer build sets it,
where each process start costs half a second and the whole sweep would take a quarter of an hour.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

FAMILY = {"Slice", "Gather", "GatherND", "GatherElements", "Pad", "Transpose", "Tile", "Concat",
          "Split", "Squeeze", "Unsqueeze", "DepthToSpace", "SpaceToDepth", "OneHot",
          "ReverseSequence", "Unique", "Compress", "Expand"}

# The nodes that may have no request, and a phrase their reason must hold: the engine's op has
# another layout or mode, or the node's arguments are computed inside the graph.
NOT_MODELLED = {
    "DepthToSpace": ["another layout"],
    "SpaceToDepth": ["another layout"],
    "Unique": ["sorted=1", "Unique along an axis"],
}
# Arguments, or the shape of an input, known only when the graph runs.
RUN_TIME = ["computed at run time", "is not known"]

# ONNX Unique's outputs (Y, indices, inverse_indices, counts) are the engine's (y, -, idx, count).
OUTPUT_OF = {"Unique": [0, None, 1, 2]}

# The CLI's line for each graph output of a node test: "'NAME' (output_K.pb): STATE".
TEST_DATA_LINE = re.compile(r"^  '.*' \(output_\d+\.pb\): (agrees|differs|not computed)")


def family_nodes(model):
    return [n for n in model.graph.node
            if n.domain in ("", "ai.onnx") and n.op_type in FAMILY]


def node_names(model):
    return [n.name if n.name else f"{n.op_type}#{i}" for i, n in enumerate(model.graph.node)]


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def main():
    cli = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/libonnx-testdata/data"
    files = sorted(os.path.join(d, "model.onnx") for d, _, names in os.walk(root)
                   if "model.onnx" in names)
    every = int(os.environ.get("SLICESCOPE_SWEEP_EVERY", "1"))
    files = files[::every]
    counts = dict(every=every, files=0, opened=0, listed=0, requests=0, answered=0, shape_checked=0,
                  shape_agree=0, value_checked=0, value_agree=0, not_modelled=0, run_time=0, check_files=0,
                  check_agree=0, test_data_files=0, test_data_outputs=0, test_data_agree=0,
                  test_data_not_computed=0)
    failures = []
    for path in files:
        counts["files"] += 1
        model = onnx.load(path)
        nodes = family_nodes(model)
        names = node_names(model)
        opened = subprocess.run([cli, "model", path], capture_output=True, text=True)
        if opened.returncode != 0:
            failures.append(f"{path}: 'model' exits {opened.returncode}: {opened.stderr.strip()}")
            continue
        counts["opened"] += 1
        if not nodes:
            continue
        # The test's inputs, by graph input name (initializers are not graph inputs to feed).
        inits = {t.name for t in model.graph.initializer}
        graph_inputs = [i.name for i in model.graph.input if i.name not in inits]
        data_dir = os.path.join(os.path.dirname(path), "test_data_set_0")
        given = set()
        expected = {}
        args = []
        if os.path.isdir(data_dir):
            args = ["--test-data", data_dir]
            k = 0
            while os.path.exists(os.path.join(data_dir, f"input_{k}.pb")):
                given.add(graph_inputs[k])
                k += 1
            outputs = [o.name for o in model.graph.output]
            k = 0
            while os.path.exists(os.path.join(data_dir, f"output_{k}.pb")):
                t = read_pb(os.path.join(data_dir, f"output_{k}.pb"))
                name = outputs[k] if k < len(outputs) else t.name
                if name:
                    expected[name] = numpy_helper.to_array(t)
                k += 1
        constants = inits | {o for n in model.graph.node if n.op_type == "Constant"
                             for o in n.output}
        real = constants | given
        listed = subprocess.run([cli, "model", path, "--json"] + args, capture_output=True,
                                text=True)
        if listed.returncode != 0:
            failures.append(f"{path}: 'model --json' exits {listed.returncode}: "
                            f"{listed.stderr.strip()}")
            continue
        lines = [line for line in listed.stdout.splitlines() if line.strip()]
        requests = {json.loads(line)["id"]: line for line in lines}
        reasons = {}
        for line in listed.stderr.splitlines():
            # "slicescope-cli: NAME (OP) has no request: REASON"
            if " has no request: " in line:
                head, reason = line.split(" has no request: ", 1)
                reasons[head[len("slicescope-cli: "):head.rindex(" (")]] = reason
        by_name = {names[i]: n for i, n in enumerate(model.graph.node)}
        for n in nodes:
            name = names[list(model.graph.node).index(n)]
            if name in requests or name in reasons:
                counts["listed"] += 1
            else:
                failures.append(f"{path}: node {name} ({n.op_type}) is not listed")
            if name in reasons:
                reason = reasons[name]
                if any(phrase in reason for phrase in RUN_TIME):
                    counts["run_time"] += 1
                elif any(phrase in reason for phrase in NOT_MODELLED.get(n.op_type, [])):
                    counts["not_modelled"] += 1
                else:
                    failures.append(f"{path}: node {name} ({n.op_type}) has no request: {reason}")
        # Every computed shape must agree with the one the file stores (or onnx's shape
        # inference gives): `--check` exits 1 on any disagreement.
        checked = subprocess.run([cli, "model", path, "--check"] + args, capture_output=True,
                                 text=True)
        counts["check_files"] += 1
        if args:
            counts["test_data_files"] += 1
            states = [m.group(1) for m in map(TEST_DATA_LINE.match, checked.stdout.splitlines())
                      if m]
            counts["test_data_outputs"] += len(states)
            counts["test_data_agree"] += states.count("agrees")
            counts["test_data_not_computed"] += states.count("not computed")
            # ONNX's own test data runs every node it feeds: a node that "did not run" is a
            # refusal of ours (or of how a computed value was passed on).
            failures += [f"{path}: {line.strip()}" for line in checked.stdout.splitlines()
                         if line.strip().startswith("did not run:")]
        if checked.returncode == 0:
            counts["check_agree"] += 1
        else:
            failures.append(f"{path}: 'model --check' exits {checked.returncode}:\n"
                            f"{checked.stdout}{checked.stderr}")
        counts["requests"] += len(requests)
        if not requests:
            continue
        ran = subprocess.run([cli, "run"], input="\n".join(requests.values()) + "\n",
                             capture_output=True, text=True)
        for line in ran.stdout.splitlines():
            response = json.loads(line)
            name = response["id"]
            n = by_name[name]
            if not response.get("ok"):
                # The node test's own output says it runs: an engine refusal is a disagreement.
                if any(o in expected for o in n.output):
                    failures.append(f"{path}: node {name} ({n.op_type}) refused: "
                                    f"{response['error']}")
                continue
            counts["answered"] += 1
            mapping = OUTPUT_OF.get(n.op_type, list(range(len(n.output))))
            values_real = all(i == "" or i in real for i in n.input)
            for k, out_name in enumerate(n.output):
                if out_name not in expected or k >= len(mapping) or mapping[k] is None:
                    continue
                want = expected[out_name]
                got = response["outputs"][mapping[k]]
                counts["shape_checked"] += 1
                if list(got["shape"]) == list(want.shape):
                    counts["shape_agree"] += 1
                else:
                    failures.append(f"{path}: node {name} output {k}: shape {got['shape']}, "
                                    f"expected {list(want.shape)}")
                    continue
                if not values_real:
                    continue
                counts["value_checked"] += 1
                if want.dtype.kind == "f":
                    data = np.array([float(x) for x in got["data"]], dtype=want.dtype)
                else:
                    data = np.array(got["data"]).astype(want.dtype)
                if np.array_equal(data.reshape(want.shape), want):
                    counts["value_agree"] += 1
                else:
                    failures.append(f"{path}: node {name} output {k}: values differ")
    print(json.dumps(counts))
    for f in failures:
        print("FAIL", f)
    if counts["opened"] != counts["files"] or counts["shape_checked"] == 0:
        failures.append("not every file opened, or nothing was checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
