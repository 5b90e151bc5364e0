#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small model files of the lesson group "What converters got wrong"
(resources/models/): each rebuilds one public report about a converter or a runtime reading a
slicing node wrongly, as a one-node model. ONNX files are written with python3-onnx, TFLite files
with make_tflite_files.py's writer (FlatBuffers code that flatc generated from SliceScope's own
schema). Where the report is about a converter writing a wrong node, the file stores the output
shape the original program meant, so the Model dock marks the disagreement.

With a third argument, TEST_DIR also gets mixed.onnx and mixed.tflite for tests/ui/tst_modeldock:
several family nodes (one agreeing with its stored shape, one not, one with an argument
computed at run time) and one node outside the family; and folded.onnx, a Slice whose ends an
exporter computes from the input's shape.

usage: make_converter_models.py GENERATED_TFLITE_PYTHON_DIR OUT_DIR [TEST_DIR]
(GENERATED_TFLITE_PYTHON_DIR is build/engine/model/generated/python)
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_tflite_files as tfl  # noqa: E402

INT32_MAX = 2**31 - 1


def onnx_model(path, node, x_shape, y_shape, inits, opset=13):
    graph = helper.make_graph(
        [node], 'main',
        [helper.make_tensor_value_info('x', TensorProto.INT32, x_shape)],
        [helper.make_tensor_value_info('y', TensorProto.INT32, y_shape)],
        initializer=[helper.make_tensor(n, TensorProto.INT64, [len(v)], v) for n, v in inits])
    model = helper.make_model(graph, producer_name='slicescope-lessons',
                              opset_imports=[helper.make_opsetid('', opset)])
    model.ir_version = 7
    onnx.save(model, path)


def main():
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)

    # tensorflow-onnx #1849: x[..., tf.newaxis, tf.newaxis] on a (2, 3) tensor means
    # (2, 3, 1, 1), i.e. Unsqueeze axes [2, 3]; the converter wrote axes [1, 2]. The file keeps
    # the converter's axes and the shape the TensorFlow program had.
    onnx_model(os.path.join(out, 'tf2onnx-1849-unsqueeze.onnx'),
               helper.make_node('Unsqueeze', ['x', 'axes'], ['y'], name='expand_dims'),
               [2, 3], [2, 3, 1, 1], [('axes', [1, 2])])

    # onnxruntime #11107: Slice starts -1, ends INT_MAX, steps -1 (meant: reverse the whole
    # axis). ONNX clamps an end to [-1, dim - 1] for a negative step, so INT_MAX becomes 4
    # and nothing is taken; the file stores what the writer meant, the whole axis reversed.
    onnx_model(os.path.join(out, 'onnxruntime-11107-slice-int-max.onnx'),
               helper.make_node('Slice', ['x', 'starts', 'ends', 'axes', 'steps'], ['y'],
                                name='reverse'),
               [5], [5], [('starts', [-1]), ('ends', [INT32_MAX]), ('axes', [0]),
                          ('steps', [-1])])

    # coremltools #1659: a strided slice converted with its strides ignored. x[:, ::2] of a
    # (3, 8) tensor is (3, 4); every column, (3, 8), is what ignoring the step gives.
    onnx_model(os.path.join(out, 'coremltools-1659-strides.onnx'),
               helper.make_node('Slice', ['x', 'starts', 'ends', 'axes', 'steps'], ['y'],
                                name='every_other_column'),
               [3, 8], [3, 4], [('starts', [0]), ('ends', [8]), ('axes', [1]), ('steps', [2])])

    B = tfl.B
    tflite = [
        # tensorflow #123997: x[1:] written with end INT64_MAX; the conversion kept its low 32
        # bits, -1, so the end is the last element and one element is lost: (2,) for (3,).
        tfl.ss('tensorflow-123997-end-truncated', [4], [1], [-1], [1], [2], stored=[3]),
        # tensorflow #19260: x[-1] is begin -1, end 0, shrink bit 0. The shrink bit makes the
        # end begin + 1: without it, -1 to 0 is an empty range.
        tfl.ss('tensorflow-19260-shrink-minus-one', [3, 4], [-1], [0], [1], [4], sh=1),
        # tensorflow-onnx #78: a YOLOv3 StridedSlice with begin_mask 9 and end_mask 9: dims 0
        # and 3 are taken whole, the begin and end given there are ignored.
        tfl.ss('tf2onnx-78-masks-nine', [1, 4, 4, 6], [0, 1, 1, 2], [0, 3, 3, 4], [1, 1, 1, 1],
               [1, 2, 2, 6], bm=9, em=9),
    ]
    for k in tflite:
        tfl.write_model(os.path.join(out, k['name'] + '.tflite'), k['code'], k['inputs'],
                        k['outputs'], k['options'])
    print('wrote', len(os.listdir(out)), 'files in', out)
    if len(sys.argv) > 3:
        write_test_models(sys.argv[3])


def write_test_models(out):
    os.makedirs(out, exist_ok=True)
    i32 = TensorProto.INT32
    nodes = [
        helper.make_node('Slice', ['x', 'starts', 'ends', 'axes'], ['rows'], name='rows'),
        helper.make_node('Unsqueeze', ['rows', 'uaxes'], ['bad'], name='bad_unsqueeze'),
        helper.make_node('Gather', ['x', 'idx'], ['picked'], name='pick', axis=0),
        helper.make_node('Add', ['rows', 'rows'], ['sum'], name='plus'),
    ]
    inits = [('starts', [1]), ('ends', [3]), ('axes', [0]), ('uaxes', [1, 2])]
    graph = helper.make_graph(
        nodes, 'mixed',
        [helper.make_tensor_value_info('x', i32, [4, 6]),
         helper.make_tensor_value_info('idx', TensorProto.INT64, [2])],
        [helper.make_tensor_value_info('bad', i32, [2, 6, 1, 1]),
         helper.make_tensor_value_info('picked', i32, [2, 6]),
         helper.make_tensor_value_info('sum', i32, [2, 6])],
        initializer=[helper.make_tensor(n, TensorProto.INT64, [len(v)], v) for n, v in inits],
        value_info=[helper.make_tensor_value_info('rows', i32, [2, 6])])
    model = helper.make_model(graph, producer_name='slicescope-tests',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 7
    onnx.save(model, os.path.join(out, 'mixed.onnx'))

    # What torch.onnx.export writes for torch.chunk(x, 2, dim=1) on a static x: the Slice's ends
    # computed from x's shape (Shape -> Gather -> Div -> Unsqueeze), which the reader folds.
    i64 = TensorProto.INT64
    nodes = [
        helper.make_node('Shape', ['x'], ['shape'], name='shape'),
        helper.make_node('Gather', ['shape', 'one'], ['size'], name='size', axis=0),
        helper.make_node('Div', ['size', 'two'], ['half'], name='half'),
        helper.make_node('Unsqueeze', ['half', 'zero'], ['ends'], name='ends'),
        helper.make_node('Slice', ['x', 'zero', 'ends', 'one_axis'], ['y'], name='first_half'),
    ]
    graph = helper.make_graph(
        nodes, 'folded', [helper.make_tensor_value_info('x', i32, [3, 4])],
        [helper.make_tensor_value_info('y', i32, [3, 2])],
        initializer=[helper.make_tensor('one', i64, [], [1]),
                     helper.make_tensor('two', i64, [], [2]),
                     helper.make_tensor('zero', i64, [1], [0]),
                     helper.make_tensor('one_axis', i64, [1], [1])])
    model = helper.make_model(graph, producer_name='slicescope-tests',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 7
    onnx.save(model, os.path.join(out, 'folded.onnx'))

    B, t, c = tfl.B, tfl.t, tfl.c
    # STRIDED_SLICE x[1:3] stored as (2, 2) (it is (2, 4)); TRANSPOSE of x, right; ADD (not of
    # the family); GATHER with indices computed at run time.
    k = tfl.ss('model/strided', [3, 4], [1], [3], [1], [2, 4], stored=[2, 2])
    tfl.write_model(
        os.path.join(out, 'mixed.tflite'), k['code'], k['inputs'], k['outputs'], k['options'],
        extra_ops=[(B.TRANSPOSE, ['x', 'perm'], [t('model/transpose', [4, 3])]),
                   (B.ADD, ['model/transpose', 'model/transpose'], [t('model/add', [4, 3])]),
                   (B.GATHER, ['x', 'model/indices'], [t('model/gather', [2, 4])])],
        extra_tensors=[c('perm', [1, 0]), t('model/indices', [2])])


if __name__ == '__main__':
    main()
