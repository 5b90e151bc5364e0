// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The TensorFlow Lite reader: a .tflite file (a FlatBuffer with file identifier "TFL3", read with
// our own schema subset, tflite_schema.fbs) becomes a ModelFile whose nodes are the operators of
// the slicing family, each translated to an engine request with TFLite's semantics.

#include "model/model_graph.h"

namespace ss::model {

/// The reader for .tflite files: verifies the whole buffer with FlatBuffers' Verifier before
/// reading anything (a hostile file gets invalid_argument, never a crash), then lists every
/// STRIDED_SLICE, SLICE, GATHER, GATHER_ND, PAD, PADV2, MIRROR_PAD, TRANSPOSE, TILE,
/// CONCATENATION, SPLIT, SPLIT_V, PACK, UNPACK, REVERSE_V2, REVERSE_SEQUENCE, SPACE_TO_BATCH_ND,
/// BATCH_TO_SPACE_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH, ONE_HOT and UNIQUE operator of every
/// subgraph.
ModelReader tfliteReader();

/// Translates one TFLite node (its op name, rawAttrs from the builtin options, and its inputs'
/// constants) into display attributes and a request or a reason; the reader's `translate`.
void translateTFLiteNode(ModelNode& node);

} // namespace ss::model
