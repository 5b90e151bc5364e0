#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the chain tensorflow-onnx made of TensorFlow's x[..., tf.newaxis, tf.newaxis] on an
input of rank 2 (tensorflow-onnx issue #1849): an Unsqueeze followed by a Slice that keeps
everything. wrong.onnx has the converter's axes [1, 2]; right.onnx the axes TensorFlow means,
[2, 3]. Each graph also starts with an Identity (outside the slicing family) and ends with a
Transpose that is not part of the chain, so that --nodes picks a run out of a longer list.

reversed.onnx and shuffled.onnx gather along axis 1 with constant indices [2, 1, 0] and
[2, 0, 1], then add a first axis.

usage: make_unsqueeze_chain.py OUT_DIR
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

INT64_MAX = 2**63 - 1


def write(path, axes, y_shape):
    nodes = [
        helper.make_node('Identity', ['x'], ['x0']),
        helper.make_node('Unsqueeze', ['x0', 'axes'], ['u']),
        helper.make_node('Slice', ['u', 'starts', 'ends', 'slice_axes'], ['s']),
        helper.make_node('Transpose', ['s'], ['y'], perm=[3, 2, 1, 0]),
    ]
    inits = [
        helper.make_tensor('axes', TensorProto.INT64, [2], axes),
        helper.make_tensor('starts', TensorProto.INT64, [1], [0]),
        helper.make_tensor('ends', TensorProto.INT64, [1], [INT64_MAX]),
        helper.make_tensor('slice_axes', TensorProto.INT64, [1], [0]),
    ]
    graph = helper.make_graph(
        nodes, 'main', [helper.make_tensor_value_info('x', TensorProto.INT32, [2, 3])],
        [helper.make_tensor_value_info('y', TensorProto.INT32, y_shape)], initializer=inits)
    model = helper.make_model(graph, producer_name='slicescope-tests',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def write_gather(path, indices):
    """A Gather along axis 1 (its indices a constant of the file), then an Unsqueeze."""
    nodes = [
        helper.make_node('Gather', ['x', 'indices'], ['g'], axis=1),
        helper.make_node('Unsqueeze', ['g', 'axes'], ['y']),
    ]
    inits = [
        helper.make_tensor('indices', TensorProto.INT64, [3], indices),
        helper.make_tensor('axes', TensorProto.INT64, [1], [0]),
    ]
    graph = helper.make_graph(
        nodes, 'main', [helper.make_tensor_value_info('x', TensorProto.INT32, [2, 3])],
        [helper.make_tensor_value_info('y', TensorProto.INT32, [1, 2, 3])], initializer=inits)
    model = helper.make_model(graph, producer_name='slicescope-tests',
                              opset_imports=[helper.make_opsetid('', 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
write(os.path.join(out, 'wrong.onnx'), [1, 2], [3, 1, 1, 2])
write(os.path.join(out, 'right.onnx'), [2, 3], [1, 1, 3, 2])
write_gather(os.path.join(out, 'reversed.onnx'), [2, 1, 0])
write_gather(os.path.join(out, 'shuffled.onnx'), [2, 0, 1])
