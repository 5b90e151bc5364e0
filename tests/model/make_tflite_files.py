#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes small .tflite files, one operator of the slicing family each, with FlatBuffers code
that flatc generated from SliceScope's own schema (engine/model/tflite_schema.fbs).

usage: make_tflite_files.py GENERATED_PYTHON_DIR OUT_DIR

OUT_DIR gets NAME.tflite per case and manifest.json: per case the file, the op, its run-time
inputs (dtype and shape: both SliceScope and the TFLite runtime fill them with 0, 1, 2, ...) and
the output shapes the file stores. tst_model_tflite reads the files back with SliceScope's
reader; tflite_litert_run.mjs runs them in LiteRT (TFLite's runtime) for the comparison.
"""
import json
import os
import struct
import sys

sys.path.insert(0, sys.argv[1])
import flatbuffers  # noqa: E402  (python3-flatbuffers)
from ss.tflite import (  # noqa: E402
    BatchToSpaceNDOptions, Buffer, BuiltinOperator as BO, BuiltinOptions as BOpt,
    ConcatenationOptions, DepthToSpaceOptions, GatherNdOptions, GatherOptions, MirrorPadOptions,
    Model, OneHotOptions, Operator, OperatorCode, PackOptions, PadOptions, PadV2Options,
    ReverseSequenceOptions, ReverseV2Options, SliceOptions, SpaceToBatchNDOptions,
    SpaceToDepthOptions, SplitOptions, SplitVOptions, StridedSliceOptions, SubGraph, Tensor,
    TileOptions, TransposeOptions, UniqueOptions, UnpackOptions)
from ss.tflite.TensorType import TensorType as TT  # noqa: E402

PACK = {TT.INT32: '<%di', TT.INT64: '<%dq', TT.FLOAT32: '<%df'}
DTYPE = {TT.INT32: 'int32', TT.INT64: 'int64', TT.FLOAT32: 'float32'}
I32MAX = 2**31 - 1


def t(name, shape, ttype=TT.INT32, data=None, signature=None):
    """A tensor: run-time (data None) or constant (a flat list of values)."""
    return dict(name=name, shape=shape, type=ttype, data=data, signature=signature)


def c(name, values, shape=None, ttype=TT.INT32):
    flat = values
    if shape is None:
        if values and isinstance(values[0], list):
            shape = [len(values), len(values[0])]
            flat = [v for row in values for v in row]
        else:
            shape = [len(values)]
    return t(name, shape, ttype, flat)


def opts(module, name, **fields):
    """Options table builder: module.Start, Add<Field> per field, End."""
    def build(b):
        getattr(module, 'Start')(b)
        for field, value in fields.items():
            getattr(module, 'Add' + ''.join(p.capitalize() for p in field.split('_')))(b, value)
        return getattr(module, 'End')(b)
    return getattr(BOpt.BuiltinOptions, name), build


def write_model(path, code, inputs, outputs, options, extra_ops=(), extra_tensors=()):
    """One subgraph: `inputs` and `outputs` are tensor dicts; run-time inputs become the
    subgraph's inputs. `extra_ops` (code, input names, output tensors) follow the main op and
    may read `extra_tensors` (constants)."""
    b = flatbuffers.Builder(1024)
    tensors, index = [], {}

    def add(tensor):
        index[tensor['name']] = len(tensors)
        tensors.append(tensor)

    for x in inputs + outputs + list(extra_tensors):
        add(x)
    for _, _, outs in extra_ops:
        for x in outs:
            add(x)

    def ivec(start, values):
        start(b, len(values))
        for v in reversed(values):
            b.PrependInt32(v)
        return b.EndVector()

    def ovec(start, items):
        start(b, len(items))
        for it in reversed(items):
            b.PrependUOffsetTRelative(it)
        return b.EndVector()

    buffers = []
    Buffer.Start(b)
    buffers.append(Buffer.End(b))  # buffer 0: the empty sentinel
    tensor_offsets = []
    for x in tensors:
        buf = 0
        if x['data'] is not None:
            raw = struct.pack(PACK[x['type']] % len(x['data']), *x['data'])
            b.StartVector(1, len(raw), 16)
            b.head = b.head - len(raw)
            b.Bytes[b.head:b.head + len(raw)] = raw
            data = b.EndVector()
            Buffer.Start(b)
            Buffer.AddData(b, data)
            buffers.append(Buffer.End(b))
            buf = len(buffers) - 1
        name = b.CreateString(x['name'])
        shape = ivec(Tensor.StartShapeVector, x['shape'])
        sig = ivec(Tensor.StartShapeSignatureVector, x['signature']) if x['signature'] else None
        Tensor.Start(b)
        Tensor.AddShape(b, shape)
        Tensor.AddType(b, x['type'])
        Tensor.AddBuffer(b, buf)
        Tensor.AddName(b, name)
        if sig is not None:
            Tensor.AddShapeSignature(b, sig)
        Tensor.AddHasRank(b, True)
        tensor_offsets.append(Tensor.End(b))

    codes = [code] + [e[0] for e in extra_ops]
    distinct = sorted(set(codes), key=codes.index)
    code_offsets = []
    for k in distinct:
        OperatorCode.Start(b)
        OperatorCode.AddDeprecatedBuiltinCode(b, min(k, 127))
        OperatorCode.AddBuiltinCode(b, k)
        OperatorCode.AddVersion(b, 1)
        code_offsets.append(OperatorCode.End(b))

    def operator(k, ins, outs, built):
        i = ivec(Operator.StartInputsVector, [index[n] if n else -1 for n in ins])
        o = ivec(Operator.StartOutputsVector, [index[n] for n in outs])
        Operator.Start(b)
        Operator.AddOpcodeIndex(b, distinct.index(k))
        Operator.AddInputs(b, i)
        Operator.AddOutputs(b, o)
        if built:
            Operator.AddBuiltinOptionsType(b, built[0])
            Operator.AddBuiltinOptions(b, built[1])
        return Operator.End(b)

    built = (options[0], options[1](b)) if options else None
    ops = [operator(code, [x['name'] for x in inputs], [x['name'] for x in outputs], built)]
    for k, ins, outs in extra_ops:
        ops.append(operator(k, ins, [x['name'] for x in outs], None))
    last = extra_ops[-1][2] if extra_ops else outputs
    runtime = [index[x['name']] for x in inputs if x['data'] is None]
    tv = ovec(SubGraph.StartTensorsVector, tensor_offsets)
    si = ivec(SubGraph.StartInputsVector, runtime)
    so = ivec(SubGraph.StartOutputsVector, [index[x['name']] for x in last])
    ov = ovec(SubGraph.StartOperatorsVector, ops)
    gname = b.CreateString('main')
    SubGraph.Start(b)
    SubGraph.AddTensors(b, tv)
    SubGraph.AddInputs(b, si)
    SubGraph.AddOutputs(b, so)
    SubGraph.AddOperators(b, ov)
    SubGraph.AddName(b, gname)
    graph = SubGraph.End(b)
    gv = ovec(Model.StartSubgraphsVector, [graph])
    cv = ovec(Model.StartOperatorCodesVector, code_offsets)
    bv = ovec(Model.StartBuffersVector, buffers)
    desc = b.CreateString('SliceScope test file')
    Model.Start(b)
    Model.AddVersion(b, 3)
    Model.AddOperatorCodes(b, cv)
    Model.AddSubgraphs(b, gv)
    Model.AddDescription(b, desc)
    Model.AddBuffers(b, bv)
    b.Finish(Model.End(b), b'TFL3')
    with open(path, 'wb') as f:
        f.write(b.Output())


def ss(name, shape, begin, end, strides, out, bm=0, em=0, el=0, na=0, sh=0, offset=False,
       stored=None):
    fields = dict(begin_mask=bm, end_mask=em, ellipsis_mask=el, new_axis_mask=na,
                  shrink_axis_mask=sh)
    if offset:
        fields['offset'] = True
    return dict(name=name, code=BO.BuiltinOperator.STRIDED_SLICE,
                inputs=[t('x', shape), c('begin', begin), c('end', end), c('strides', strides)],
                outputs=[t('y', stored if stored is not None else out)],
                options=opts(StridedSliceOptions, 'StridedSliceOptions', **fields),
                computed=[out])


def case(name, code, inputs, outs, options, **extra):
    d = dict(name=name, code=code, inputs=inputs, outputs=[t(n, s) if isinstance(s, list) else s
                                                           for n, s in outs],
             options=options, computed=[s if isinstance(s, list) else s['shape']
                                        for _, s in outs])
    d.update(extra)
    return d


B = BO.BuiltinOperator
CASES = [
    # STRIDED_SLICE, every mask, without and with offset.
    ss('ss_plain', [3, 4], [1, 0], [3, 4], [1, 1], [2, 4]),
    ss('ss_begin_mask', [3, 4], [2, 1], [3, 3], [1, 1], [3, 2], bm=1),
    ss('ss_end_mask', [3, 4], [1, 1], [0, 2], [1, 1], [2, 1], em=1),
    ss('ss_negative_stride_masks', [3, 4], [1, 0], [3, 0], [1, -1], [2, 4], bm=2, em=2),
    ss('ss_shrink', [3, 4], [1, 0], [2, 4], [1, 2], [2], sh=1),
    ss('ss_shrink_begin_minus_1', [3, 4], [-1, 0], [0, 4], [1, 1], [4], sh=1),
    ss('ss_ellipsis', [2, 3, 4], [0, 1], [0, 3], [1, 1], [2, 3, 2], el=1),
    ss('ss_new_axis', [3, 4], [0, 1], [0, 3], [1, 1], [1, 2, 4], na=1),
    ss('ss_negative_begin_end', [5, 6], [-2, -1], [-5, -6], [-1, -2], [3, 3]),
    ss('ss_strides', [2, 6], [0, 1], [2, 6], [1, 2], [2, 3]),
    ss('ss_all_masks_mixed', [2, 3, 4], [1, 0, 0], [2, 0, 0], [1, 1, -1], [1, 3, 4],
       bm=4, em=4, na=2, sh=1),
    ss('ss_offset', [3, 4], [1, 1], [2, 2], [1, 1], [2, 2], offset=True),
    ss('ss_offset_negative_begin', [3, 4], [-2, 0], [1, 3], [1, 1], [1, 3], offset=True),
    ss('ss_offset_begin_mask_negative_stride', [5], [0], [-3], [-1], [3], bm=1, offset=True),
    ss('ss_offset_end_mask', [3, 4], [1, 1], [1, 2], [1, 1], [1, 3], em=2, offset=True),
    ss('ss_offset_shrink', [3, 4], [1, 1], [9, 2], [1, 1], [2], sh=1, offset=True),
    ss('ss_offset_negative_sum', [5], [3], [-4], [1], [1], offset=True),
    ss('ss_offset_stride_2', [7], [1], [5], [2], [3], offset=True),
    # SLICE, GATHER, TRANSPOSE (compared with the runtime) and the rest of the family.
    case('slice', B.SLICE, [t('x', [3, 4]), c('begin', [1, 1]), c('size', [2, -1])],
         [('y', [2, 3])], opts(SliceOptions, 'SliceOptions')),
    case('slice_3d', B.SLICE, [t('x', [2, 3, 4]), c('begin', [0, 1, 1]), c('size', [1, 2, 3])],
         [('y', [1, 2, 3])], opts(SliceOptions, 'SliceOptions')),
    case('gather_axis_0', B.GATHER, [t('x', [3, 4]), c('indices', [2, 0])], [('y', [2, 4])],
         opts(GatherOptions, 'GatherOptions', axis=0)),
    case('gather_axis_1', B.GATHER, [t('x', [3, 4]), c('indices', [[3, 1], [0, 0]])],
         [('y', [3, 2, 2])], opts(GatherOptions, 'GatherOptions', axis=1)),
    case('gather_negative_axis', B.GATHER, [t('x', [3, 4]), c('indices', [1])], [('y', [3, 1])],
         opts(GatherOptions, 'GatherOptions', axis=-1)),
    case('gather_batch_dims', B.GATHER, [t('x', [2, 3]), c('indices', [[0, 2], [1, 1]])],
         [('y', [2, 2])], opts(GatherOptions, 'GatherOptions', axis=1, batch_dims=1)),
    case('gather_float', B.GATHER, [t('x', [4, 2], TT.FLOAT32), c('indices', [3, 3, 0])],
         [('y', t('y', [3, 2], TT.FLOAT32))], opts(GatherOptions, 'GatherOptions', axis=0)),
    case('transpose_2d', B.TRANSPOSE, [t('x', [3, 4]), c('perm', [1, 0])], [('y', [4, 3])],
         opts(TransposeOptions, 'TransposeOptions')),
    case('transpose_3d', B.TRANSPOSE, [t('x', [2, 3, 4]), c('perm', [2, 0, 1])],
         [('y', [4, 2, 3])], opts(TransposeOptions, 'TransposeOptions')),
    case('gather_nd', B.GATHER_ND, [t('x', [3, 4]), c('indices', [[1, 2], [0, 0]])],
         [('y', [2])], opts(GatherNdOptions, 'GatherNdOptions')),
    case('pad', B.PAD, [t('x', [2, 3]), c('paddings', [[1, 0], [0, 2]])], [('y', [3, 5])],
         opts(PadOptions, 'PadOptions')),
    case('padv2', B.PADV2, [t('x', [2, 3]), c('paddings', [[0, 1], [1, 1]]),
                            c('constant_values', [7], [])],
         [('y', [3, 5])], opts(PadV2Options, 'PadV2Options')),
    case('mirror_pad_reflect', B.MIRROR_PAD, [t('x', [3, 4]), c('paddings', [[1, 1], [2, 0]])],
         [('y', [5, 6])], opts(MirrorPadOptions, 'MirrorPadOptions', mode=0)),
    case('mirror_pad_symmetric', B.MIRROR_PAD, [t('x', [3, 4]), c('paddings', [[1, 2], [0, 3]])],
         [('y', [6, 7])], opts(MirrorPadOptions, 'MirrorPadOptions', mode=1)),
    case('tile', B.TILE, [t('x', [2, 3]), c('multiples', [2, 1])], [('y', [4, 3])],
         opts(TileOptions, 'TileOptions')),
    case('concatenation', B.CONCATENATION,
         [t('x', [2, 3]), c('more', [100, 101, 102, 103], [2, 2])], [('y', [2, 5])],
         opts(ConcatenationOptions, 'ConcatenationOptions', axis=1)),
    case('split', B.SPLIT, [c('axis', [1], []), t('x', [2, 6])],
         [('y0', [2, 2]), ('y1', [2, 2]), ('y2', [2, 2])],
         opts(SplitOptions, 'SplitOptions', num_splits=3)),
    case('split_v', B.SPLIT_V, [t('x', [2, 6]), c('size_splits', [1, -1, 2]), c('axis', [1], [])],
         [('y0', [2, 1]), ('y1', [2, 3]), ('y2', [2, 2])],
         opts(SplitVOptions, 'SplitVOptions', num_splits=3)),
    case('pack', B.PACK, [t('x', [2, 3]), c('more', [10, 11, 12, 13, 14, 15], [2, 3])],
         [('y', [2, 2, 3])], opts(PackOptions, 'PackOptions', values_count=2, axis=1)),
    case('unpack', B.UNPACK, [t('x', [3, 4])], [('y%d' % k, [3]) for k in range(4)],
         opts(UnpackOptions, 'UnpackOptions', num=4, axis=1)),
    case('reverse_v2', B.REVERSE_V2, [t('x', [3, 4]), c('axis', [1])], [('y', [3, 4])],
         opts(ReverseV2Options, 'ReverseV2Options')),
    case('reverse_sequence', B.REVERSE_SEQUENCE, [t('x', [3, 4]), c('seq_lengths', [1, 3, 4])],
         [('y', [3, 4])],
         opts(ReverseSequenceOptions, 'ReverseSequenceOptions', seq_dim=1, batch_dim=0)),
    case('space_to_batch_nd', B.SPACE_TO_BATCH_ND,
         [t('x', [1, 4, 4, 1]), c('block_shape', [2, 2]), c('paddings', [[0, 0], [0, 0]])],
         [('y', [4, 2, 2, 1])], opts(SpaceToBatchNDOptions, 'SpaceToBatchNDOptions')),
    case('batch_to_space_nd', B.BATCH_TO_SPACE_ND,
         [t('x', [4, 2, 2, 1]), c('block_shape', [2, 2]), c('crops', [[0, 0], [0, 0]])],
         [('y', [1, 4, 4, 1])], opts(BatchToSpaceNDOptions, 'BatchToSpaceNDOptions')),
    case('depth_to_space', B.DEPTH_TO_SPACE, [t('x', [1, 1, 2, 4])], [('y', [1, 2, 4, 1])],
         opts(DepthToSpaceOptions, 'DepthToSpaceOptions', block_size=2)),
    case('space_to_depth', B.SPACE_TO_DEPTH, [t('x', [1, 2, 4, 1])], [('y', [1, 1, 2, 4])],
         opts(SpaceToDepthOptions, 'SpaceToDepthOptions', block_size=2)),
    case('one_hot', B.ONE_HOT,
         [t('x', [4]), c('depth', [3], []), c('on', [5.0], [], TT.FLOAT32),
          c('off', [-1.0], [], TT.FLOAT32)],
         [('y', t('y', [4, 3], TT.FLOAT32))], opts(OneHotOptions, 'OneHotOptions', axis=-1)),
]

# Files only SliceScope reads (not run in the runtime).
READ_ONLY = [
    # UNIQUE's outputs have a size known only at run time; LiteRT.js hands back buffers of the
    # stored size unfilled, so there is nothing to compare.
    case('unique', B.UNIQUE, [t('x', [5])],
         [('y', t('y', [5], signature=[-1])), ('idx', [5])],
         opts(UniqueOptions, 'UniqueOptions', idx_out_type=TT.INT32)),
    # Offset sums that land outside the dimension. SliceScope reads them as strided_slice_logic.h
    # does (the sum is wrapped and clamped like any end); LiteRT.js 2.5.3 computes the same
    # output shape but returns zeros or unrelated memory as the values (its evaluation does not
    # clamp the sum), and refuses the 32-bit overflow at prepare time.
    ss('ss_offset_sum_past_the_end', [5], [1], [6], [1], [4], offset=True),
    ss('ss_offset_sum_clamped_negative_stride', [5], [4], [-9], [-1], [4], offset=True),
    ss('ss_offset_int32_wrap', [5], [1], [I32MAX], [1], [0], offset=True),
    # An index past its dimension: TensorFlow (and SliceScope) refuse it; LiteRT.js returns
    # zeros. The node's reason says so.
    dict(ss('ss_shrink_out_of_range', [3, 4], [5, 0], [6, 4], [1, 1], [4], sh=1), computed=[],
         refused=True),
    # A converter bug as it looks: the stored output shape is not what the op computes.
    ss('wrong_stored_shape', [3, 4], [1, 0], [3, 4], [1, 1], [2, 4], stored=[2, 2]),
    # An unknown batch dimension (shape_signature -1) and a begin computed at run time.
    dict(name='runtime_begin', code=B.STRIDED_SLICE,
         inputs=[t('x', [1, 4], signature=[-1, 4]), t('begin', [2]), c('end', [1, 3]),
                 c('strides', [1, 1])],
         outputs=[t('y', [1, 2], signature=[-1, 2])],
         options=opts(StridedSliceOptions, 'StridedSliceOptions', end_mask=1), computed=[]),
    # Two family operators and one that is not (ADD): names, indices, the node count.
    dict(name='three_ops', code=B.TRANSPOSE,
         inputs=[t('x', [2, 3]), c('perm', [1, 0])], outputs=[t('model/transpose', [3, 2])],
         options=opts(TransposeOptions, 'TransposeOptions'), computed=[[3, 2]],
         extra_ops=[(B.ADD, ['model/transpose', 'model/transpose'], [t('model/add', [3, 2])]),
                    (B.REVERSE_V2, ['model/add', 'rev_axis'], [t('model/reverse', [3, 2])])],
         extra_tensors=[c('rev_axis', [0])]),
]


def main():
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    manifest = []
    for k in CASES + READ_ONLY:
        path = os.path.join(out, k['name'] + '.tflite')
        write_model(path, k['code'], k['inputs'], k['outputs'], k['options'],
                    k.get('extra_ops', ()), k.get('extra_tensors', ()))
        manifest.append(dict(
            name=k['name'], file=path, runtime=k in CASES,
            inputs=[dict(name=x['name'], dtype=DTYPE[x['type']], shape=x['shape'])
                    for x in k['inputs'] if x['data'] is None],
            stored=[x['shape'] for x in k['outputs']], computed=k['computed'],
            refused=k.get('refused', False)))
    with open(os.path.join(out, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
    print('%d files in %s' % (len(manifest), out))


if __name__ == "__main__":
    main()
