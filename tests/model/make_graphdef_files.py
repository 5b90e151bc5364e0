#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes small TensorFlow graphs with protobuf code that protoc generated from SliceScope's own
message definitions (engine/model/graphdef.proto): one family node each, its arguments as Const
nodes, its data input a Placeholder, shapes in _output_shapes as TensorFlow's converter writes
them.

usage: make_graphdef_files.py GENERATED_PYTHON_DIR OUT_DIR

OUT_DIR gets NAME.pb (binary GraphDef), NAME.pbtxt (the same in text form), saved/saved_model.pb
(a SavedModel around one of them) and manifest.json: per case the file, the node's op, the output
shapes stored and the ones TensorFlow computes (tst_model_graphdef reads them back).
"""
import json
import os
import struct
import sys

sys.path.insert(0, sys.argv[1])
from google.protobuf import text_format  # noqa: E402  (python3-protobuf)
import graphdef_pb2 as pb  # noqa: E402

DT = {'int32': pb.DT_INT32, 'int64': pb.DT_INT64, 'float32': pb.DT_FLOAT}
PACK = {'int32': '<%di', 'int64': '<%dq', 'float32': '<%df'}


def shape_proto(shape, proto):
    if shape is None:
        proto.unknown_rank = True
        return
    for d in shape:
        proto.dim.add().size = d


def placeholder(g, name, shape, dtype='int32'):
    n = g.node.add(name=name, op='Placeholder')
    n.attr['dtype'].type = DT[dtype]
    shape_proto(shape, n.attr['shape'].shape)
    shape_proto(shape, n.attr['_output_shapes'].list.shape.add())


def const(g, name, values, shape=None, dtype='int32', raw=True):
    """A Const node: raw tensor_content by default, else the typed list (TensorFlow writes both)."""
    flat = values
    if shape is None:
        if values and isinstance(values[0], list):
            shape = [len(values), len(values[0])]
            flat = [v for row in values for v in row]
        else:
            shape = [len(values)]
    n = g.node.add(name=name, op='Const')
    n.attr['dtype'].type = DT[dtype]
    t = n.attr['value'].tensor
    t.dtype = DT[dtype]
    shape_proto(shape, t.tensor_shape)
    if raw:
        t.tensor_content = struct.pack(PACK[dtype] % len(flat), *flat)
    elif dtype == 'int64':
        t.int64_val.extend(flat)
    elif dtype == 'float32':
        t.float_val.extend(flat)
    else:
        t.int_val.extend(flat)
    shape_proto(shape, n.attr['_output_shapes'].list.shape.add())


def node(g, name, op, inputs, outs, T='int32', **attrs):
    n = g.node.add(name=name, op=op)
    n.input.extend(inputs)
    n.attr['T'].type = DT[T]
    for k, v in attrs.items():
        if isinstance(v, bool):
            n.attr[k].b = v
        elif isinstance(v, int):
            n.attr[k].i = v
        elif isinstance(v, str):
            n.attr[k].s = v.encode()
        elif isinstance(v, tuple):  # a type attribute
            n.attr[k].type = DT[v[0]]
    for s in outs:
        shape_proto(s, n.attr['_output_shapes'].list.shape.add())
    return n


def graph():
    g = pb.GraphDef()
    g.versions.producer = 1205
    return g


def strided(name, shape, b, e, s, out, computed=None, **masks):
    g = graph()
    placeholder(g, 'x', shape)
    const(g, 'begin', b)
    const(g, 'end', e, raw=False)
    const(g, 'strides', s)
    node(g, 'model/strided_slice', 'StridedSlice', ['x', 'begin', 'end', 'strides', '^x'], [out],
         Index=('int32',), **masks)
    return name, g, [computed or out]


def cases():
    out = []
    out.append(strided('strided_slice', [3, 4], [1, 0], [3, 0], [1, -1], [2, 4],
                       begin_mask=2, end_mask=2))
    out.append(strided('strided_slice_unknown_batch', [-1, 4], [0, 1], [0, 3], [1, 1], [-1, 2],
                       computed=[1, 2], begin_mask=1, end_mask=1))
    # A converter bug as it looks: the stored shape is not what the op computes.
    out.append(strided('strided_slice_wrong_shape', [3, 4], [1, 0], [3, 4], [1, 1], [2, 2],
                       computed=[2, 4]))

    g = graph()
    placeholder(g, 'x', [3, 4])
    const(g, 'indices', [[3, 1], [0, 0]])
    const(g, 'axis', [1], [], raw=False)
    n = node(g, 'gather', 'GatherV2', ['x', 'indices', 'axis'], [[3, 2, 2]], batch_dims=0)
    del n.attr['T']
    n.attr['Tparams'].type = pb.DT_INT32
    out.append(('gather_v2', g, [[3, 2, 2]]))

    g = graph()
    placeholder(g, 'x', [2, 3, 4])
    const(g, 'perm', [2, 0, 1])
    node(g, 'transpose', 'Transpose', ['x', 'perm'], [[4, 2, 3]])
    out.append(('transpose', g, [[4, 2, 3]]))

    g = graph()
    placeholder(g, 'x', [2, 3])
    const(g, 'more', [1, 2, 3, 4], [2, 2])
    const(g, 'axis', [1], [])
    node(g, 'concat', 'ConcatV2', ['x', 'more', 'axis'], [[2, 5]], N=2)
    out.append(('concat_v2', g, [[2, 5]]))

    g = graph()
    placeholder(g, 'x', [2, 6])
    const(g, 'axis', [1], [])
    node(g, 'split', 'Split', ['axis', 'x'], [[2, 2], [2, 2], [2, 2]], num_split=3)
    out.append(('split', g, [[2, 2], [2, 2], [2, 2]]))

    g = graph()
    placeholder(g, 'x', [3, 4])
    const(g, 'paddings', [[1, 1], [2, 0]])
    node(g, 'mirror_pad', 'MirrorPad', ['x', 'paddings'], [[5, 6]], mode='REFLECT')
    out.append(('mirror_pad', g, [[5, 6]]))

    g = graph()
    placeholder(g, 'x', [5])
    node(g, 'unique', 'Unique', ['x'], [[-1], [5]], out_idx=('int32',))
    out.append(('unique', g, [[5], [5]]))

    g = graph()
    placeholder(g, 'x', [1, 2, 2, 4])
    node(g, 'd2s', 'DepthToSpace', ['x'], [[1, 2, 2, 4]], block_size=2, data_format='NCHW')
    out.append(('depth_to_space_nchw', g, []))

    # The other ops of the family, one each, their outputs stored as TensorFlow computes them.
    def one(name, op, data, args, outs, inputs=None, **attrs):
        g = graph()
        placeholder(g, 'x', data)
        for arg, values, shape in args:
            const(g, arg, values, shape)
        node(g, name, op, inputs or ['x'] + [a[0] for a in args], outs, **attrs)
        out.append((name, g, outs))

    one('slice', 'Slice', [3, 4], [('begin', [1, 0], None), ('size', [2, -1], None)], [[2, 4]])
    one('gather', 'Gather', [3, 4], [('indices', [2, 0], None)], [[2, 4]])
    one('gather_nd', 'GatherNd', [3, 4], [('indices', [[1, 2], [0, 0]], None)], [[2]])
    one('pad', 'Pad', [2, 3], [('paddings', [[1, 0], [0, 2]], None)], [[3, 5]])
    one('pad_v2', 'PadV2', [2, 3],
        [('paddings', [[1, 1], [1, 1]], None), ('constant_values', [7], [])], [[4, 5]])
    one('tile', 'Tile', [2, 3], [('multiples', [2, 1], None)], [[4, 3]])
    one('concat', 'Concat', [2, 3], [('axis', [0], []), ('more', [1, 2, 3], [1, 3])], [[3, 3]],
        inputs=['axis', 'x', 'more'], N=2)
    one('split_v', 'SplitV', [2, 6], [('size_splits', [1, 5], None), ('axis', [1], [])],
        [[2, 1], [2, 5]], num_split=2)
    one('pack', 'Pack', [2, 3], [], [[2, 2, 3]], inputs=['x', 'x'], N=2, axis=0)
    one('unpack', 'Unpack', [3, 2], [], [[2], [2], [2]], num=3, axis=0)
    one('reverse_v2', 'ReverseV2', [2, 3], [('axis', [1], None)], [[2, 3]])
    one('reverse_sequence', 'ReverseSequence', [2, 4], [('seq_lengths', [2, 3], None)], [[2, 4]],
        seq_dim=1, batch_dim=0)
    one('space_to_batch_nd', 'SpaceToBatchND', [1, 4, 4, 1],
        [('block_shape', [2, 2], None), ('paddings', [[0, 0], [0, 0]], None)], [[4, 2, 2, 1]])
    one('batch_to_space_nd', 'BatchToSpaceND', [4, 2, 2, 1],
        [('block_shape', [2, 2], None), ('crops', [[0, 0], [0, 0]], None)], [[1, 4, 4, 1]])
    one('depth_to_space', 'DepthToSpace', [1, 2, 2, 4], [], [[1, 4, 4, 1]], block_size=2)
    one('space_to_depth', 'SpaceToDepth', [1, 4, 4, 1], [], [[1, 2, 2, 4]], block_size=2)
    one('one_hot', 'OneHot', [3],
        [('depth', [4], []), ('on_value', [1], []), ('off_value', [0], [])], [[3, 4]], axis=-1)
    one('unique_with_counts', 'UniqueWithCounts', [5], [], [[5], [5], [5]],
        out_idx=('int32',))

    # Three nodes of the family among others, the last one's input computed at run time.
    g = graph()
    placeholder(g, 'x', [2, 3])
    const(g, 'perm', [1, 0])
    node(g, 'model/transpose', 'Transpose', ['x', 'perm'], [[3, 2]])
    node(g, 'model/add', 'AddV2', ['model/transpose', 'model/transpose'], [[3, 2]])
    node(g, 'model/size', 'Shape', ['model/add'], [[2]])
    node(g, 'model/slice', 'Slice', ['model/add', 'model/size', 'model/size'], [[-1, -1]])
    out.append(('several_nodes', g, [[3, 2]]))
    return out


def main():
    out_dir = sys.argv[2]
    os.makedirs(os.path.join(out_dir, 'saved'), exist_ok=True)
    manifest = []
    for name, g, computed in cases():
        path = os.path.join(out_dir, name + '.pb')
        with open(path, 'wb') as f:
            f.write(g.SerializeToString())
        with open(os.path.join(out_dir, name + '.pbtxt'), 'w') as f:
            f.write(text_format.MessageToString(g))
        family = [n for n in g.node if n.op not in ('Placeholder', 'Const', 'AddV2', 'Shape')]
        manifest.append(dict(name=name, file=path, op=family[0].op, nodes=len(g.node),
                             family=len(family),
                             stored=[[d.size for d in s.dim] for s in
                                     family[0].attr['_output_shapes'].list.shape],
                             computed=computed))
        if name == 'strided_slice':
            saved = pb.SavedModel(saved_model_schema_version=1)
            saved.meta_graphs.add().graph_def.CopyFrom(g)
            with open(os.path.join(out_dir, 'saved', 'saved_model.pb'), 'wb') as f:
                f.write(saved.SerializeToString())
    with open(os.path.join(out_dir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
    print('%d graphs in %s' % (len(manifest), out_dir))


main()
