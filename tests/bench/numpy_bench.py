#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The NumPy side of bench_slicing: times each workload's NumPy equivalent.

bench_slicing writes one JSON object per line to the file named on the command line:
  {"name": ..., "inputs": {"x": [8192, 8192], ...}, "dtype": "float32",
   "indices": {"idx": [count, rows]},
   "expr": "x[::2, ::-1].copy()", "out_expr": "np.copyto(out, x[::2, ::-1])", "runs": 7}
"out_expr" (may be empty) does the same work into a preallocated array `out` of the result's
shape, as np.copyto or an out= argument does: no fresh output pages to fault in.
Optional, for bench_index: "setup" is Python code run once, untimed, after the arrays are made
(it may make more arrays and define functions for statements such as out[idx] = x), and
"check" an expression over the timed result `y` that gives the array to checksum (np.unique's
values in order of first occurrence, as TensorFlow gives them).
Optional, for the CLI-path mode: "npy" maps array names to .npy files (the files the engine's
requests read). The arrays are then np.load-ed from them (after "setup", replacing any array of
that name), and a sixth column times np.load of every file followed by the expression.
Inputs are arrays of "dtype" (float32 if absent) whose bit patterns are 0, 1, 2, ... plus (k << 28)
for the k-th input, exactly as the benchmark fills the engine's inputs; 1- and 2-byte elements get
i + (i >> 8) + (i >> 16) cut to their width (bool: its lowest bit). Index arrays are int32,
(i * 7919) % rows.
For each workload this prints one line:
  name <TAB> median ms <TAB> shape <TAB> checksum <TAB> out= median ms (nan if none)
  <TAB> load + expression median ms (nan without "npy")
where the checksum is the protocol's: sum of bits(y_i) * (2i + 1) modulo 2^64.
"""
import json
import sys
import time

import numpy as np


BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def make_input(shape, k, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.uint32)
    bits = i + np.uint32(k << 28)
    if dtype.itemsize < 4:
        bits += (i >> np.uint32(8)) + (i >> np.uint32(16))
    if dtype == np.bool_:
        bits &= np.uint32(1)
    return bits.astype(BITS[dtype.itemsize]).view(dtype).reshape(shape)


def make_indices(count, rows):
    return (np.arange(count, dtype=np.int64) * 7919 % rows).astype(np.int32)


def checksum(a):
    flat = np.ascontiguousarray(a).reshape(-1).view(BITS[a.dtype.itemsize])
    total = 0
    chunk = 1 << 23
    for start in range(0, flat.size, chunk):
        part = flat[start:start + chunk].astype(np.uint64)
        weight = np.arange(start, start + part.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        total = (total + int(np.sum(part * weight, dtype=np.uint64))) % (1 << 64)
    return total


def main():
    with open(sys.argv[1]) as f:
        workloads = [json.loads(line) for line in f if line.strip()]
    for w in workloads:
        ns = {'np': np}
        dtype = np.dtype(w.get('dtype', 'float32'))
        files = w.get('npy', {})
        if not files:
            for k, (name, shape) in enumerate(w['inputs'].items()):
                ns[name] = make_input(tuple(shape), k, dtype)
            for name, (count, rows) in w.get('indices', {}).items():
                ns[name] = make_indices(count, rows)
        if w.get('setup'):
            exec(compile(w['setup'], w['name'] + ' setup', 'exec'), ns)
        for name, path in files.items():
            ns[name] = np.load(path)
        code = compile(w['expr'], w['name'], 'eval')
        load_ms = float('nan')
        if files:
            load_times = []
            for run in range(w['runs'] + 1):  # the first is an untimed warm-up
                start = time.perf_counter()
                for name, path in files.items():
                    ns[name] = np.load(path)
                y = eval(code, ns)
                if run > 0:
                    load_times.append((time.perf_counter() - start) * 1000)
                del y
            load_times.sort()
            load_ms = load_times[len(load_times) // 2]
        eval(code, ns)  # an untimed warm-up run, as the engine has
        times = []
        for run in range(w['runs']):
            start = time.perf_counter()
            y = eval(code, ns)
            times.append((time.perf_counter() - start) * 1000)
            if run + 1 < w['runs']:
                del y  # freed between runs, as the engine's output is
        times.sort()
        if w.get('check'):
            ns['y'] = y
            y = eval(compile(w['check'], w['name'] + ' check', 'eval'), ns)
            del ns['y']
        shape = ','.join(str(d) for d in y.shape)
        total = checksum(y)
        out_ms = float('nan')
        if w.get('out_expr'):
            ns['out'] = np.empty_like(y)
            del y
            out_code = compile(w['out_expr'], w['name'] + ' out=', 'eval')
            eval(out_code, ns)  # warm-up: the output's pages are faulted in here, once
            out_times = []
            for run in range(w['runs']):
                start = time.perf_counter()
                eval(out_code, ns)
                out_times.append((time.perf_counter() - start) * 1000)
            out_times.sort()
            out_ms = out_times[len(out_times) // 2]
            if checksum(ns['out']) != total:
                raise SystemExit('%s: out= gives another result' % w['name'])
        else:
            del y
        print('%s\t%.3f\t%s\t%d\t%.3f\t%.3f' % (w['name'], times[len(times) // 2], shape, total,
                                                out_ms, load_ms), flush=True)
        del ns


if __name__ == '__main__':
    main()
