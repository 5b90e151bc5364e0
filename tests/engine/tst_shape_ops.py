# SPDX-License-Identifier: GPL-3.0-or-later
# NumPy's answers for tst_shape_ops' differential cases: one JSON request per line on stdin, one
# JSON answer (a list of outputs) per line on stdout. Input k of a request is
# arange(size).reshape(shape) + 100000 * k, the same tensors the C++ side builds.
import json
import sys

import numpy as np


def inputs(req):
    return [np.arange(int(np.prod(s, dtype=np.int64)), dtype=np.int64).reshape(s) + 100000 * k
            for k, s in enumerate(req["shapes"])]


def reverse_sequence(x, lengths, seq, batch):
    # A direct loop over every element: NumPy has no such op.
    out = x.copy()
    for idx in np.ndindex(*x.shape):
        n = lengths[idx[batch]]
        if idx[seq] < n:
            src = list(idx)
            src[seq] = n - 1 - idx[seq]
            out[idx] = x[tuple(src)]
    return out


def answer(req):
    xs = inputs(req)
    x = xs[0]
    op = req["op"]
    if op == "split":
        if "num" in req:
            return np.split(x, req["num"], axis=req["axis"])
        return np.array_split(x, np.cumsum(req["sizes"])[:-1], axis=req["axis"])
    if op == "tile":
        return [np.tile(x, tuple(req["multiples"]))]
    if op == "pad":
        if x.ndim == 0:
            return [x]
        mode = req["mode"]
        if mode == "constant":
            return [np.pad(x, req["paddings"], mode="constant", constant_values=req["constant"])]
        return [np.pad(x, req["paddings"], mode=mode)]
    if op == "concat":
        return [np.concatenate(xs, axis=req["axis"])]
    if op == "stack":
        return [np.stack(xs, axis=req["axis"])]
    if op == "unstack":
        a = req["axis"] % x.ndim
        return [x[(slice(None),) * a + (k,)] for k in range(x.shape[a])]
    if op == "reverse_sequence":
        return [reverse_sequence(x, req["lengths"], req["seq"], req["batch"])]
    if op == "reverse":
        return [np.flip(x, axis=tuple(req["axes"]))]
    if op == "roll":
        return [np.roll(x, tuple(req["shift"]), tuple(req["axis"])) if req["shift"] else x]
    if op == "transpose":
        return [np.transpose(x, req["perm"]) if "perm" in req else np.transpose(x)]
    raise ValueError("unknown op " + op)


for line in sys.stdin:
    outs = answer(json.loads(line))
    print(json.dumps([{"shape": list(o.shape), "data": o.ravel().tolist()} for o in outs]))
