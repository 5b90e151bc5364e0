#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes, per format, element type and way of storing a constant, a gather node whose data is a
constant (2, 3) tensor of that type (one file each; the ONNX dtypes share a file per way of
storing, as each ONNX file costs a run of onnx's checker), written by the format's own library:
python3-onnx (numpy_helper for raw_data, helper.make_tensor for the typed fields), FlatBuffers
code that flatc generated from SliceScope's TFLite schema, and protobuf code that protoc
generated from its GraphDef messages. Besides, per format, a constant of a type SliceScope does
not have, which the reader must name.

usage: make_dtype_models.py TFLITE_PYTHON_DIR GRAPHDEF_PYTHON_DIR OUT_DIR

OUT_DIR gets the files and manifest.json: per case the file (and node), SliceScope's dtype
and the constant's elements as little-endian bytes (hex) as the format's reference decoder
reads them (onnx.numpy_helper.to_array for ONNX, NumPy for the others); or, for a type
SliceScope lacks, the text its message must name. tst_model_dtypes reads them back.
"""
import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as TP, helper, numpy_helper

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_tflite_files as tfl  # noqa: E402
from ss.tflite import BuiltinOperator as BO, GatherOptions  # noqa: E402
from ss.tflite.TensorType import TensorType as TT  # noqa: E402
import graphdef_pb2 as pb  # noqa: E402

SHAPE = [2, 3]
# Values that show each type's edges: signs, extremes, fractions, -0, infinity, big integers.
VALUES = {
    'bool': [True, False, True, False, False, True],
    'int8': [-128, 127, -1, 0, 5, 9],
    'uint8': [0, 255, 1, 128, 7, 9],
    'int16': [-32768, 32767, -1, 0, 300, 9],
    'uint16': [0, 65535, 1, 32768, 300, 9],
    'int32': [-2**31, 2**31 - 1, -1, 0, 70000, 9],
    'uint32': [0, 2**32 - 1, 1, 2**31, 70000, 9],
    'int64': [-2**63, 2**63 - 1, -1, 0, 2**40, 9],
    'uint64': [0, 2**64 - 1, 1, 2**63, 2**40, 9],
    'float16': [-1.5, 0.1, 65504.0, -0.0, math.inf, 6e-08],
    'bfloat16': [-1.5, 0.1, 3.0e38, -0.0, -math.inf, 1.0e-3],
    'float32': [-1.5, 0.1, 3.4e38, -0.0, math.inf, 1e-45],
    'float64': [-1.5, 0.1, 1.7e308, -0.0, -math.inf, 5e-324],
    'complex64': [1 + 2j, -0.5 - 0.25j, 3e10 - 1j, 0j, 1j, -7 + 0j],
    'complex128': [1 + 2j, -0.5 - 0.25j, 1e300 - 1e-300j, 0j, 1j, -7 + 0j],
}
NUMPY = {'bfloat16': np.uint16}  # held as its bits: NumPy has no bfloat16


def bfloat16_bits(values):
    """Nearest bfloat16 (ties to even) of each float32, as its 16 bits."""
    bits = np.array(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def array(dtype):
    if dtype == 'bfloat16':
        return bfloat16_bits(VALUES[dtype]).reshape(SHAPE)
    return np.array(VALUES[dtype], dtype=NUMPY.get(dtype, dtype)).reshape(SHAPE)


# ---- ONNX ----------------------------------------------------------------------------------

ONNX_TYPE = {
    'bool': TP.BOOL, 'int8': TP.INT8, 'uint8': TP.UINT8, 'int16': TP.INT16,
    'uint16': TP.UINT16, 'int32': TP.INT32, 'uint32': TP.UINT32, 'int64': TP.INT64,
    'uint64': TP.UINT64, 'float16': TP.FLOAT16, 'bfloat16': TP.BFLOAT16, 'float32': TP.FLOAT,
    'float64': TP.DOUBLE, 'complex64': TP.COMPLEX64, 'complex128': TP.COMPLEX128,
}


def onnx_tensor(dtype, storage, name='data'):
    a = array(dtype)
    if storage == 'raw':
        if dtype == 'bfloat16':
            return helper.make_tensor(name, TP.BFLOAT16, SHAPE, a.tobytes(), raw=True)
        return numpy_helper.from_array(a, name)
    # The typed fields, filled by onnx's own helper (float16 and bfloat16 as their bits in
    # int32_data, complex as pairs, uint32 and uint64 in uint64_data).
    values = VALUES[dtype]
    if dtype == 'bfloat16':
        values = [float(v) for v in np.array(values, dtype=np.float32)]
    return helper.make_tensor(name, ONNX_TYPE[dtype], SHAPE, values, raw=False)


def onnx_expected(tensor, dtype):
    """The constant's bytes as onnx's own reader (numpy_helper.to_array) decodes them."""
    if dtype.startswith('complex') and not tensor.HasField('raw_data'):
        # onnx 1.12's to_array fails on typed complex data (it casts the pairs joined into
        # complex numbers back to float); the pairs are (real, imaginary) as onnx.proto says.
        pairs = tensor.float_data if dtype == 'complex64' else tensor.double_data
        flat = [complex(pairs[k], pairs[k + 1]) for k in range(0, len(pairs), 2)]
        return np.array(flat, dtype=dtype).tobytes().hex()
    a = numpy_helper.to_array(tensor)
    if dtype == 'bfloat16':  # to_array gives the float32 values, exact
        return (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).tobytes().hex()
    return a.astype(NUMPY.get(dtype, dtype)).tobytes().hex()


def onnx_gathers(path, datas):
    """One model, a Gather per (data initializer, output type): each ONNX file costs a run of
    onnx's checker in a child process, so the dtypes share one."""
    indices = numpy_helper.from_array(np.array([1, 0], dtype=np.int64), 'indices')
    nodes, outputs = [], []
    for data, out_type in datas:
        suffix = data.name[len('data'):]
        nodes.append(helper.make_node('Gather', [data.name, 'indices'], ['y' + suffix],
                                      name='gather' + suffix, axis=0))
        outputs.append(helper.make_tensor_value_info('y' + suffix, out_type, SHAPE))
    graph = helper.make_graph(nodes, 'main', [], outputs,
                              initializer=[d for d, _ in datas] + [indices])
    model = helper.make_model(graph, producer_name='make_dtype_models',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 8
    onnx.save(model, path)


# ---- TFLite --------------------------------------------------------------------------------

TFLITE_TYPE = {
    'bool': TT.BOOL, 'int8': TT.INT8, 'uint8': TT.UINT8, 'int16': TT.INT16,
    'uint16': TT.UINT16, 'int32': TT.INT32, 'uint32': TT.UINT32, 'int64': TT.INT64,
    'uint64': TT.UINT64, 'float16': TT.FLOAT16, 'bfloat16': TT.BFLOAT16,
    'float32': TT.FLOAT32, 'float64': TT.FLOAT64, 'complex64': TT.COMPLEX64,
    'complex128': TT.COMPLEX128,
}


def tflite_gather(path, ttype, raw):
    # Every constant goes in as its bytes: the buffer holds them little-endian, as TFLite does.
    for k in list(vars(TT)):
        if not k.startswith('_'):
            tfl.PACK[getattr(TT, k)] = '<%dB'
    params = tfl.t('params', SHAPE, ttype, list(raw))
    indices = tfl.t('indices', [2], TT.INT32, list(np.array([1, 0], dtype='<i4').tobytes()))
    tfl.write_model(path, BO.BuiltinOperator.GATHER, [params, indices],
                    [tfl.t('y', SHAPE, ttype)], tfl.opts(GatherOptions, 'GatherOptions', axis=0))


# ---- TensorFlow GraphDef -------------------------------------------------------------------

GRAPHDEF_TYPE = {
    'bool': pb.DT_BOOL, 'int8': pb.DT_INT8, 'uint8': pb.DT_UINT8, 'int16': pb.DT_INT16,
    'uint16': pb.DT_UINT16, 'int32': pb.DT_INT32, 'uint32': pb.DT_UINT32, 'int64': pb.DT_INT64,
    'uint64': pb.DT_UINT64, 'float16': pb.DT_HALF, 'bfloat16': pb.DT_BFLOAT16,
    'float32': pb.DT_FLOAT, 'float64': pb.DT_DOUBLE, 'complex64': pb.DT_COMPLEX64,
    'complex128': pb.DT_COMPLEX128,
}


def typed_list(t, dtype, a):
    """TensorProto's typed list for `dtype`, as TensorFlow's tensor_util fills it."""
    flat = a.reshape(-1)
    if dtype in ('float16', 'bfloat16'):
        t.half_val.extend(int(v) for v in flat.view(np.uint16))
    elif dtype == 'complex64':
        t.scomplex_val.extend(float(x) for v in flat for x in (v.real, v.imag))
    elif dtype == 'complex128':
        t.dcomplex_val.extend(float(x) for v in flat for x in (v.real, v.imag))
    elif dtype == 'float32':
        t.float_val.extend(float(v) for v in flat)
    elif dtype == 'float64':
        t.double_val.extend(float(v) for v in flat)
    elif dtype == 'int64':
        t.int64_val.extend(int(v) for v in flat)
    elif dtype == 'uint32':
        t.uint32_val.extend(int(v) for v in flat)
    elif dtype == 'uint64':
        t.uint64_val.extend(int(v) for v in flat)
    elif dtype == 'bool':
        t.bool_val.extend(bool(v) for v in flat)
    else:  # int8, uint8, int16, uint16, int32
        t.int_val.extend(int(v) for v in flat)


def graphdef_gather(path, dt, fill):
    g = pb.GraphDef()
    g.versions.producer = 1205

    def const(name, dtype, shape, fill_tensor):
        n = g.node.add(name=name, op='Const')
        n.attr['dtype'].type = dtype
        t = n.attr['value'].tensor
        t.dtype = dtype
        for d in shape:
            t.tensor_shape.dim.add().size = d
        fill_tensor(t)
        out = n.attr['_output_shapes'].list.shape.add()
        for d in shape:
            out.dim.add().size = d

    const('params', dt, SHAPE, fill)
    const('indices', pb.DT_INT32, [2],
          lambda t: setattr(t, 'tensor_content', np.array([1, 0], '<i4').tobytes()))
    const('axis', pb.DT_INT32, [], lambda t: t.int_val.append(0))
    n = g.node.add(name='gather', op='GatherV2')
    n.input.extend(['params', 'indices', 'axis'])
    n.attr['Tparams'].type = dt
    n.attr['Tindices'].type = pb.DT_INT32
    n.attr['batch_dims'].i = 0
    out = n.attr['_output_shapes'].list.shape.add()
    for d in SHAPE:
        out.dim.add().size = d
    with open(path, 'wb') as f:
        f.write(g.SerializeToString())


def main():
    out = sys.argv[3]
    os.makedirs(out, exist_ok=True)
    cases = []

    def case(name, fmt, ext, dtype=None, expected=None, names=None, file=None, node=None):
        cases.append(dict(name=name, format=fmt, file=(file or name) + ext, node=node,
                          dtype=dtype, bytes=expected, error=names))
        return os.path.join(out, (file or name) + ext)

    for storage in ('raw', 'typed'):
        datas = []
        for dtype in VALUES:
            t = onnx_tensor(dtype, storage, 'data_' + dtype)
            path = case('onnx_%s_%s' % (dtype, storage), 'onnx', '.onnx', dtype,
                        onnx_expected(t, dtype), file='onnx_' + storage, node='gather_' + dtype)
            datas.append((t, ONNX_TYPE[dtype]))
        onnx_gathers(path, datas)
    for dtype in VALUES:
        a = array(dtype)
        tflite_gather(case('tflite_%s' % dtype, 'tflite', '.tflite', dtype, a.tobytes().hex()),
                      TFLITE_TYPE[dtype], a.tobytes())
        graphdef_gather(case('graphdef_%s_raw' % dtype, 'graphdef', '.pb', dtype,
                             a.tobytes().hex()), GRAPHDEF_TYPE[dtype],
                        lambda t, a=a: setattr(t, 'tensor_content', a.tobytes()))
        graphdef_gather(case('graphdef_%s_typed' % dtype, 'graphdef', '.pb', dtype,
                             a.tobytes().hex()), GRAPHDEF_TYPE[dtype],
                        lambda t, dtype=dtype, a=a: typed_list(t, dtype, a))

    # Types SliceScope lacks: the reader names them. ONNX 1.12 has none left beyond the fifteen,
    # so a type number the file format does not define.
    weird = TP()
    weird.name = 'data_unknown'
    weird.data_type = 99
    weird.dims.extend(SHAPE)
    weird.raw_data = bytes(6)
    onnx_gathers(case('onnx_unknown', 'onnx', '.onnx', names='type 99'), [(weird, TP.FLOAT)])
    tflite_gather(case('tflite_int4', 'tflite', '.tflite', names='INT4'), TT.INT4, bytes(3))
    graphdef_gather(case('graphdef_qint8', 'graphdef', '.pb', names='DT_QINT8'), pb.DT_QINT8,
                    lambda t: setattr(t, 'tensor_content', bytes(6)))

    # A float16 Pad whose constant has a fraction: the request keeps it (it was truncated).
    pad = helper.make_graph(
        [helper.make_node('Pad', ['x', 'pads', 'value'], ['y'], name='pad', mode='constant')],
        'main', [helper.make_tensor_value_info('x', TP.FLOAT16, SHAPE)],
        [helper.make_tensor_value_info('y', TP.FLOAT16, [2, 5])],
        initializer=[numpy_helper.from_array(np.array([0, 1, 0, 1], np.int64), 'pads'),
                     numpy_helper.from_array(np.array(0.5, np.float16), 'value')])
    model = helper.make_model(pad, producer_name='make_dtype_models',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, 'onnx_pad_float16.onnx'))

    with open(os.path.join(out, 'manifest.json'), 'w') as f:
        json.dump(cases, f, indent=1)


if __name__ == '__main__':
    main()
