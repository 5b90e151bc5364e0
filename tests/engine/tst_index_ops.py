# SPDX-License-Identifier: GPL-3.0-or-later
# NumPy reference for tst_index_ops: one JSON case per input line, one JSON answer per output line.
# Data inputs are numbered elements (input slot s, element i is s * 1000000 + i), so the op's answer
# on them is exactly the expected `sources`; one_hot, sequence_mask and unique's idx/count answer
# with their values.
import json
import sys

import numpy as np

SLOT = 1000000


def numbered(shape, slot=0):
    return (np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64) + slot * SLOT).reshape(shape)


def ints(shape, values):
    return np.array(values, dtype=np.int64).reshape(shape)


def gather(c):
    p = numbered(c["pshape"])
    idx = ints(c["ishape"], c["idx"])
    axis, b = c["axis"], c["bd"]
    out = np.empty(p.shape[:axis] + idx.shape[b:] + p.shape[axis + 1:], dtype=np.int64)
    for batch in np.ndindex(p.shape[:b]):
        out[batch] = np.take(p[batch], idx[batch], axis=axis - b)
    return [out]


def gather_nd(c):
    p = numbered(c["pshape"])
    idx = ints(c["ishape"], c["idx"])
    b = c["bd"]
    out = np.empty(idx.shape[:-1] + p.shape[b + idx.shape[-1]:], dtype=np.int64)
    for batch in np.ndindex(p.shape[:b]):
        out[batch] = p[batch][tuple(np.moveaxis(idx[batch], -1, 0))]
    return [out]


def unique(c):
    x = np.array(c["x"], dtype=np.float64 if c["float"] else np.int64)
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                          return_counts=True)
    order = np.argsort(first)  # np.unique sorts; TensorFlow keeps order of first occurrence
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return [first[order], rank[inverse], counts[order]]


def boolean_mask(c):
    t = numbered(c["tshape"])
    mask = np.array(c["mask"], dtype=bool).reshape(c["mshape"])
    axis = c["axis"] % t.ndim
    return [t[(slice(None),) * axis + (mask,)]]


def dynamic_partition(c):
    data = numbered(c["dshape"])
    part = ints(c["pshape"], c["part"])
    return [data[part == k] for k in range(c["n"])]


def dynamic_stitch(c):
    k = len(c["idx"])
    indices = [ints(s, v) for s, v in zip(c["ishapes"], c["idx"])]
    data = [numbered(s, k + m) for m, s in enumerate(c["dshapes"])]
    slice_shape = data[0].shape[indices[0].ndim:]
    first = max([int(i.max()) for i in indices if i.size] + [-1]) + 1
    merged = np.full((first,) + slice_shape, -1, dtype=np.int64)
    for m in range(k):
        rows = data[m].reshape((indices[m].size,) + slice_shape)
        for i, row in enumerate(indices[m].reshape(-1)):
            merged[row] = rows[i]
    return [merged]


def one_hot(c):
    idx = ints(c["ishape"], c["idx"])
    out = (idx[..., None] == np.arange(c["depth"])).astype(np.int64)
    return [out if c["axis"] == -1 else np.moveaxis(out, -1, c["axis"])]


def sequence_mask(c):
    lengths = ints(c["lshape"], c["len"])
    maxlen = c["maxlen"]
    if maxlen is None:
        maxlen = max(0, int(lengths.max())) if lengths.size else 0
    return [(np.arange(maxlen) < lengths[..., None]).astype(np.int64)]


OPS = {f.__name__: f for f in (gather, gather_nd, unique, boolean_mask, dynamic_partition,
                               dynamic_stitch, one_hot, sequence_mask)}

for line in sys.stdin:
    case = json.loads(line)
    outputs = OPS[case["op"]](case)
    print(json.dumps({"outputs": [{"shape": list(o.shape), "data": o.reshape(-1).tolist()}
                                  for o in outputs]}))
