# SPDX-License-Identifier: GPL-3.0-or-later
# Reference answers for tst_space_ops: the textbook definitions of the space/batch/depth ops in
# NumPy (pad, reshape, transpose, reshape; patches by fancy indexing), written independently of
# the engine's banded plans. One JSON request per stdin line, one JSON answer per stdout line;
# the input tensor is always arange(size) as int64 in the requested shape.
import json
import math
import sys

import numpy as np


def space_to_batch(x, block, pairs):
    m = len(block)
    padded = np.pad(x, [(0, 0)] + [tuple(p) for p in pairs] + [(0, 0)] * (x.ndim - 1 - m))
    if any(padded.shape[1 + i] % block[i] for i in range(m)):
        return None
    batch, rest = x.shape[0], list(x.shape[1 + m:])
    split = [batch]
    for i in range(m):
        split += [padded.shape[1 + i] // block[i], block[i]]
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    out = padded.reshape(split + rest).transpose(perm)
    return out.reshape([batch * math.prod(block)] + [padded.shape[1 + i] // block[i] for i in range(m)] + rest)


def batch_to_space(x, block, crops):
    m = len(block)
    prod = math.prod(block)
    if x.shape[0] % prod:
        return None
    batch, spatial, rest = x.shape[0] // prod, list(x.shape[1:1 + m]), list(x.shape[1 + m:])
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    full = x.reshape(list(block) + [batch] + spatial + rest).transpose(perm)
    full = full.reshape([batch] + [spatial[i] * block[i] for i in range(m)] + rest)
    index = [slice(None)]
    for i in range(m):
        size = full.shape[1 + i]
        if crops[i][0] + crops[i][1] > size:
            return None
        index.append(slice(crops[i][0], size - crops[i][1]))
    return full[tuple(index)]


def window(n, k, stride, rate, same):
    k_eff = k + (k - 1) * (rate - 1)
    if same:
        out = -(-n // stride)
        return out, max(0, (out - 1) * stride + k_eff - n) // 2
    numerator = n - k_eff + stride
    out = numerator // stride if numerator >= 0 else -(-numerator // stride)  # C++ truncation
    return (out, 0) if out >= 0 else (None, 0)


def patches(x, k, strides, rates, same):
    batch, rows, cols, depth = x.shape
    out_rows, top = window(rows, k[0], strides[0], rates[0], same)
    out_cols, left = window(cols, k[1], strides[1], rates[1], same)
    if out_rows is None or out_cols is None:
        return None
    # Source position of every (output position, kernel tap), shifted into a padded image.
    r = np.arange(out_rows)[:, None] * strides[0] + np.arange(k[0])[None, :] * rates[0]
    c = np.arange(out_cols)[:, None] * strides[1] + np.arange(k[1])[None, :] * rates[1]
    below = max(0, int(r.max(initial=0)) - top - rows + 1)
    right = max(0, int(c.max(initial=0)) - left - cols + 1)
    padded = np.pad(x, [(0, 0), (top, below), (left, right), (0, 0)])
    out = padded[:, r[:, None, :, None], c[None, :, None, :], :]
    return out.reshape(batch, out_rows, out_cols, k[0] * k[1] * depth)


def space_to_depth(x, b):
    n, h, w, c = x.shape
    if h % b or w % b:
        return None
    y = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return y.reshape(n, h // b, w // b, b * b * c)


def depth_to_space(x, b):
    n, h, w, c = x.shape
    if c % (b * b):
        return None
    y = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return y.reshape(n, h * b, w * b, c // (b * b))


def required(input_shape, block, base):
    if not block:
        return [], []
    shape, block, base = np.array(input_shape), np.array(block), np.array(base).reshape(-1, 2)
    extra = (block - (shape + base[:, 0] + base[:, 1]) % block) % block
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1)
    crops = np.stack([np.zeros_like(extra), extra], axis=1)
    return paddings.ravel().tolist(), crops.ravel().tolist()


def answer(req):
    op = req["op"]
    if op == "required":
        paddings, crops = required(req["input_shape"], req["block"], req["base"])
        return {"paddings": paddings, "crops": crops}
    x = np.arange(math.prod(req["shape"]), dtype=np.int64).reshape(req["shape"])
    if op == "space_to_batch_nd":
        y = space_to_batch(x, req["block"], req["pairs"])
    elif op == "batch_to_space_nd":
        y = batch_to_space(x, req["block"], req["pairs"])
    elif op == "patches":
        y = patches(x, req["k"], req["s"], req["r"], req["padding"] == "SAME")
    elif op == "space_to_depth":
        y = space_to_depth(x, req["b"])
    else:
        y = depth_to_space(x, req["b"])
    if y is None:
        return {"error": True}
    return {"shape": list(y.shape), "data": y.ravel().tolist()}


for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))))
