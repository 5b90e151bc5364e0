# SPDX-License-Identifier: GPL-3.0-or-later
# tst_npy_dtypes' differential half: NumPy writes an .npy file of one dtype (every bit pattern as
# likely: NaN payloads, subnormals, -0, infinities, uint64 above 2^63), slicescope-cli slices it
# with a random basic subscript and saves the result, and the saved file must hold exactly the
# bytes NumPy's own x[subscript] holds.
#
# usage: tst_npy_dtypes.py CLI DIR DESCR COUNT SEED
# DESCR is a NumPy type string ('<f2', '>c16', '<u8', '|S5', '>U3', '|S0', ...) or 'V2' / '<V2' for
# bfloat16 as NumPy (a plain 2-byte void) and ml_dtypes save it. Strings are random text (bytes
# strings UTF-8), their string type kept: NumPy's x[subscript] of '|S5' is '|S5'. Prints one line
# per mismatch and exits 1 if there is any.
import io
import os
import random
import subprocess
import sys

import numpy as np

cli, workdir, descr, count, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(
    sys.argv[5])
rng = random.Random(seed)
bfloat16 = descr in ('V2', '<V2')
element = np.dtype('<u2') if bfloat16 else np.dtype(descr)


# Text of one to four UTF-8 bytes a character.
ALPHABET = 'abcXYZ09 \u00e9\u00df\u5b57\U0001F600'


def random_strings(shape):
    if element.itemsize == 0:
        # '|S0' and '<U0' (empty strings only): NumPy makes no new array of them (np.zeros gives
        # '|S1') but reads a file of them as they are.
        f = io.BytesIO()
        np.lib.format.write_array_header_1_0(f, {'descr': element.str, 'fortran_order': False,
                                                 'shape': shape})
        f.seek(0)
        return np.load(f)
    n = int(np.prod(shape, dtype=np.int64))
    items = []
    for _ in range(n):
        text = ''
        while True:
            more = text + rng.choice(ALPHABET)
            fits = len(more.encode()) if element.kind == 'S' else len(more)
            if fits > element.itemsize // (1 if element.kind == 'S' else 4) or rng.random() < 0.3:
                break
            text = more
        items.append(text.encode() if element.kind == 'S' else text)
    return np.array(items, dtype=element).reshape(shape)


def random_array(shape):
    if element.kind in 'SU':
        return random_strings(shape)
    n = int(np.prod(shape, dtype=np.int64))
    raw = np.frombuffer(rng.randbytes(n * element.itemsize), dtype=np.uint8)
    return raw.view(element).reshape(shape)


def random_subscript(shape):
    # Integers in range, slices with any bounds and steps, None and at most one Ellipsis.
    entries = []
    dims = list(shape)
    ellipsis = False
    while dims or not entries:
        kind = rng.choice(['int', 'slice', 'slice', 'none', 'ellipsis'])
        if kind == 'ellipsis' and not ellipsis:
            ellipsis = True
            entries.append(('...', Ellipsis))
            dims = dims[rng.randint(0, len(dims)):]
        elif (kind == 'none' and len(entries) < 6) or not dims:
            entries.append(('None', None))
        elif kind == 'int' and dims[0] > 0:
            i = rng.randint(-dims[0], dims[0] - 1)
            entries.append((str(i), i))
            dims.pop(0)
        else:
            d = dims.pop(0)

            def bound():
                return rng.choice([None, rng.randint(-d - 2, d + 2)])

            start, stop = bound(), bound()
            step = rng.choice([None, 1, 2, 3, -1, -2, -3])
            text = ('' if start is None else str(start)) + ':' + (
                '' if stop is None else str(stop)) + ('' if step is None else ':' + str(step))
            entries.append((text, slice(start, stop, step)))
    return 'x[' + ', '.join(t for t, _ in entries) + ']', tuple(v for _, v in entries)


def little(a):
    # x[key] is a NumPy scalar where every axis is indexed; np.array keeps its rank 0.
    a = np.asarray(a)
    return np.array(a, dtype=a.dtype.newbyteorder('<'), order='C')


failures = []
for case in range(count):
    rank = rng.randint(0, 4)
    shape = tuple(rng.randint(0, 4) for _ in range(rank))
    x = random_array(shape)
    path = os.path.join(workdir, 'in%d.npy' % case)
    out = os.path.join(workdir, 'out%d.npy' % case)
    if bfloat16:
        np.save(path, x.view('V2'))  # '|V2'
        if descr == '<V2':  # ml_dtypes' spelling: the header names a byte order
            with open(path, 'r+b') as f:
                head = f.read(128)
                at = head.index(b"'|V2'")
                f.seek(at)
                f.write(b"'<V2'")
    else:
        np.save(path, x)
    expr, key = random_subscript(shape)
    # Where every axis is indexed, x[key] is a NumPy scalar: x[key + (...,)] is the same element
    # as a 0-d array of x's dtype (a string scalar's own is only as long as its text, and
    # np.array(scalar, dtype='|S0') would make it '|S1').
    expected = little(x[key] if Ellipsis in key else x[key + (Ellipsis,)])
    run = subprocess.run([cli, 'eval', '--input', 'x=' + path, expr, '--save', out, '--json'],
                         capture_output=True, text=True)
    if run.returncode != 0:
        failures.append('%s %s of shape %s: slicescope-cli failed: %s' %
                        (descr, expr, shape, run.stderr.strip()))
        continue
    try:
        got = np.load(out)
    except ValueError as e:
        failures.append('%s %s of shape %s: NumPy cannot read the saved file: %s' %
                        (descr, expr, shape, e))
        continue
    if bfloat16:
        if got.dtype.kind != 'V' or got.dtype.itemsize != 2:
            failures.append('%s %s: saved as %s, not a 2-byte void' % (descr, expr, got.dtype.str))
            continue
        got = got.view('<u2')
    if got.dtype != expected.dtype or got.shape != expected.shape:
        failures.append('%s %s of shape %s: got %s %s, NumPy %s %s' %
                        (descr, expr, shape, got.dtype.str, got.shape, expected.dtype.str,
                         expected.shape))
    elif got.tobytes() != expected.tobytes():
        failures.append('%s %s of shape %s: the bytes differ' % (descr, expr, shape))
    os.remove(path)
    os.remove(out)

for f in failures:
    print(f)
print('%s: %d of %d subscripts equal NumPy bit for bit' % (descr, count - len(failures), count))
sys.exit(1 if failures else 0)
